"""The async service layer the screens use. No Textual import here.

Plain async code over `vagent_tui.api.PlatformClient`: the session and its target,
the child-account directory, inbox paging, migration watching, agent cross-checks.
"""
