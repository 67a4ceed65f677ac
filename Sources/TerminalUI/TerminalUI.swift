// TerminalUI module; filled in by following commits.
