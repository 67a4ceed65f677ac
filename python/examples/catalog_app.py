"""A row of 1,000,000 titles, declared instead of listed: select opens a title's page, Menu
(back) closes it and focus returns to the title."""
import tenfoot

titles = tenfoot.virtual_group("titles", 1_000_000, (300, 170), spacing=(40, 0),
                               origin=(60, 400), title_prefix="Title ",
                               viewport=(0, 380, 1920, 210))
app = tenfoot.App(layout=tenfoot.layout([], [titles], initial_focus="titles#0"))
opened_from = None


@app.on_activated
def open_page(id, screen):
    global opened_from
    if screen.has_group("page"):
        return None
    opened_from = id
    number = int(id.split("#")[1]) + 1  # titles#i is Title i + 1
    page = tenfoot.item("page", f"Title {number}", (600, 120, 1200, 600),
                        body=f"Title {number:,} of 1,000,000.")
    return tenfoot.patch(tenfoot.add_group("page", traps_focus=True),
                         tenfoot.add_item(page, group="page"), focus_group="page")


@app.on_back
def close_page(screen):
    if screen.has_group("page"):
        return tenfoot.patch(tenfoot.remove_group("page"), focus_item=opened_from)


if __name__ == "__main__":
    app.main()
