# Shared by the scripts: source it, do not run it.

# Runs "$@" with its output shown as it comes, minus the harmless "prohibited flag(s):
# -isystem /usr/include/mit-krb5" warning that libzmq's pkg-config file makes SwiftPM print,
# and returns the command's own exit status (not grep's).
swiftpm() {
  local status
  set +e
  "$@" 2>&1 | grep --line-buffered -v "prohibited flag"
  status=${PIPESTATUS[0]}
  set -e
  return "$status"
}
