"""vagent-tui: a keyboard-driven terminal console for a voice-agent platform."""

__version__ = "0.1.0"
