"""A lesson's pages over the game (tutorial_flow.py): the page a step opens with, cut to fit,
after a picture when the step has one, and its drawing."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from companion.ui import screens
from companion.ui.canvas import WORDS
from companion.ui.screens import paginate
from companion.ui.text import t


@dataclass(frozen=True)
class LessonView:
    """A lesson's page over the game: ``title`` in the band, the text cut into ``pages``,
    page ``page`` shown; ``footer`` is the catalogue key of the last page's footer (what OK
    does there). A ``picture`` is the first page (its ``pages`` entry is empty)."""

    title: str
    pages: tuple[tuple[str, ...], ...]
    footer: str
    page: int = 0
    picture: Image.Image | None = None
    kind = "lesson"

    @property
    def last(self) -> bool:
        """Whether the last page is shown."""
        return self.page == len(self.pages) - 1


def lesson_page(title: str, text: str, footer: str = "tutorial.footer.go",
                picture: Image.Image | None = None) -> LessonView:
    """A page of ``text`` (a line break starts a new line) under ``title``, after
    ``picture`` when there is one."""
    pages = tuple(paginate(text))
    return LessonView(title, ((), *pages) if picture is not None else pages, footer, picture=picture)


def render_lesson(view: LessonView) -> Image.Image:
    """The picture of a lesson page: the page number in the band when there are more."""
    footer = t(view.footer if view.last else "tutorial.footer.more")
    count = len(view.pages)
    if view.picture is None or view.page > 0:
        return screens.pages_screen(view.title, view.pages[view.page], view.page + 1, count, footer)
    image = view.picture.copy()
    image.info[WORDS] = list(view.picture.info.get(WORDS, ()))  # its own list: drawn on below
    screens.title_band(image, view.title, t("page", n=1, of=count) if count > 1 else "")
    screens.footer_line(image, footer)
    return image
