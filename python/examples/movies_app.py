"""A row of 1,000,000 movies whose titles come on demand: the screen asks for the items that
come near the window in view, and the app answers with their content."""
import tenfoot

movies = tenfoot.virtual_group("movies", 1_000_000, (300, 170), spacing=(40, 0),
                               origin=(60, 400), title_prefix="Loading ",
                               viewport=(0, 380, 1920, 210))
app = tenfoot.App(layout=tenfoot.layout([], [movies], initial_focus="movies#0"))


@app.on_items_in_view
def supply(group, indices, screen):
    return tenfoot.set_virtual_content(group, {
        i: tenfoot.virtual_content(f"Movie {i + 1}", subtitle=f"{1950 + i % 75}",
                                   unavailable=i % 1000 == 999)  # not yet released
        for i in indices})


if __name__ == "__main__":
    app.main()
