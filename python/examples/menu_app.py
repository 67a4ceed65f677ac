"""A menu whose items open a page on select; Menu (back) closes it and focus returns."""
import tenfoot

PAGES = {
    "weather": ("Weather", "Sunny, 21 °C. Light wind from the west."),
    "news": ("News", "The river festival opens on Saturday."),
    "settings": ("Settings", "Nothing to set yet: this is a template."),
}
menu = [tenfoot.item(id, title, (80, 120 + index * 130, 420, 100), subtitle="Select to open")
        for index, (id, (title, _)) in enumerate(PAGES.items())]
app = tenfoot.App(layout=tenfoot.layout(menu, [tenfoot.group("menu", menu)]))
opened_from = None


@app.on_activated
def open_page(id, screen):
    global opened_from
    if screen.has_group("page") or id not in PAGES:
        return None
    opened_from = id
    title, body = PAGES[id]
    page = tenfoot.item(f"page-{id}", title, (600, 120, 1200, 600), body=body)
    return tenfoot.patch(tenfoot.add_group("page", traps_focus=True),
                         tenfoot.add_item(page, group="page"), focus_group="page")


@app.on_back
def close_page(screen):
    if screen.has_group("page"):
        return tenfoot.patch(tenfoot.remove_group("page"), focus_item=opened_from)


if __name__ == "__main__":
    app.main()
