"""Copy: OSC 52 where the terminal is likely to accept it, else a modal to select from.

OSC 52 is an escape sequence asking the terminal to put text on the system clipboard.
It works in most modern terminals (kitty, WezTerm, iTerm2, Windows Terminal, foot,
Alacritty, xterm with ``allowWindowOps``) and through SSH, but is silently dropped by:

* the Linux console (``TERM=linux``) and dumb terminals;
* macOS Terminal.app (``TERM_PROGRAM=Apple_Terminal``);
* GNU screen (``STY`` set), which does not pass it on by default;
* tmux with ``set-clipboard off`` (the default ``external`` passes it on).

When one of those is detected the copied text is shown in a modal where it can be
selected with the mouse (shift+drag in most terminals). ``VAGENT_COPY=modal`` always
uses the modal, ``VAGENT_COPY=osc52`` never does. After an OSC 52 copy, ctrl+y shows
the last copied text anyway (never for secrets such as a new token, which their own
dialog already shows).

In a browser (``vagent-tui serve``) the terminal is the page's xterm.js, whose clipboard
addon hands OSC 52 to the browser's clipboard: the server's own terminal (its ``TERM``,
tmux, screen) says nothing about it, so ``web`` copies through OSC 52 whatever the
server's environment holds, unless ``VAGENT_COPY`` says otherwise.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping
from functools import lru_cache

OSC52 = "osc52"
MODAL = "modal"


@lru_cache(maxsize=1)
def _tmux_set_clipboard() -> str:
    tmux = shutil.which("tmux")
    if not tmux:
        return ""
    try:
        done = subprocess.run(
            [tmux, "show-options", "-gv", "set-clipboard"],
            capture_output=True,
            text=True,
            timeout=1,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.strip()


def copy_method(
    env: Mapping[str, str] | None = None, *, tmux_option: str | None = None, web: bool = False
) -> str:
    """``"osc52"`` or ``"modal"`` for this terminal (see the module text).

    ``web``: the app is drawn in a browser page (Textual's web driver, ``App.is_web``).
    """
    env = os.environ if env is None else env
    forced = env.get("VAGENT_COPY", "").strip().lower()
    if forced in (OSC52, MODAL):
        return forced
    if web:
        return OSC52
    term = env.get("TERM", "")
    if term in ("", "linux", "dumb") or env.get("TERM_PROGRAM") == "Apple_Terminal":
        return MODAL
    if env.get("STY"):
        return MODAL
    if env.get("TMUX"):
        option = _tmux_set_clipboard() if tmux_option is None else tmux_option
        if option == "off":
            return MODAL
    return OSC52
