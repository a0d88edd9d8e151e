"""A row cut by the right edge of the view ends in an ellipsis (Fleet matrix, tables)."""

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from vagent_tui.ui.widgets.fleet_matrix import _crop_marked

PLAIN = Style()


def shown(line: str, start: int, width: int) -> str:
    strip = _crop_marked(Strip([Segment(line)], len(line)), start, width, PLAIN)
    assert strip.cell_length == width
    return "".join(segment.text for segment in strip)


def test_a_word_cut_by_the_edge_ends_in_an_ellipsis() -> None:
    assert shown("  1111  sendSms, collectPayment  ", 0, 20) == "  1111  sendSms, co…"


def test_a_cut_between_words_or_a_line_that_fits_is_left_as_it_is() -> None:
    assert shown("  1111  sendSms, collectPayment  ", 0, 16) == "  1111  sendSms,"
    assert shown("  1111  sendSms  ", 0, 17) == "  1111  sendSms  "
    assert shown("  1111  sendSms  ", 0, 30) == "  1111  sendSms  " + " " * 13


def test_scrolled_right_the_mark_is_at_the_new_edge() -> None:
    assert shown("  1111  sendSms, collectPayment  ", 8, 12) == "sendSms, co…"


def test_a_table_cut_by_the_view_ends_in_an_ellipsis_where_text_reaches_the_edge() -> None:
    from vagent_tui.ui.widgets.tables import cut_at_edge

    def cut(line: str, width: int) -> str:
        return "".join(s.text for s in cut_at_edge(Strip([Segment(line)], width), width))

    assert cut(" IP entry dele", 14) == " IP entry del…"
    assert cut(" 200   IP     ", 14) == " 200   IP     "
