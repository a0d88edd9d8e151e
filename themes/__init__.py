"""Theme files shipped with vagent-tui (installed as the vagent_tui.themes package)."""
