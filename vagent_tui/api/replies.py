"""Reading the platform's replies: JSON decoding, error envelopes, model validation.

Validation errors never travel as exceptions' context: they quote the reply's values,
which may echo a secret. Each becomes a `MalformedResponse` naming only the fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import GenericAlias
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar, cast

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, create_model
from pydantic_core import from_json

from vagent_tui.api.base import without_nulls
from vagent_tui.api.errors import ApiError, MalformedResponse, PlatformError, redact_text

if TYPE_CHECKING:
    from typing_extensions import TypeForm

ModelT = TypeVar("ModelT", bound=BaseModel)
Json = dict[str, Any]
CACHED_STRINGS: Final = "keys"
"""What `from_json` keeps in pydantic-core's cache of strings: the keys, which repeat in
every reply; not the values (names, ids, texts), most of which come once."""


class Reply(Protocol):
    """What is read of a reply (an `httpx.Response`, read whole by the sender)."""

    @property
    def status_code(self) -> int: ...

    @property
    def reason_phrase(self) -> str: ...

    @property
    def headers(self) -> Mapping[str, str]: ...

    @property
    def content(self) -> bytes: ...


def _list_of(model: type[ModelT]) -> TypeForm[list[ModelT]]:
    """``list[model]``, built at run time: a type checker takes no variable for a type."""
    return cast("TypeForm[list[ModelT]]", GenericAlias(list, (model,)))


_LIST_ADAPTERS: dict[type[BaseModel], TypeAdapter[Any]] = {}


def _list_adapter(model: type[ModelT]) -> TypeAdapter[list[ModelT]]:
    """One validator per list type, built once: a list validates in one call."""
    adapter = _LIST_ADAPTERS.get(model)
    if adapter is None:
        adapter = _LIST_ADAPTERS[model] = TypeAdapter(_list_of(model))
    return adapter


class _ListEnvelope(BaseModel):
    """A list reply: ``success``, ``message`` and the list under its key (``items``)."""

    model_config = ConfigDict(extra="ignore")
    success: Any = None
    message: Any = None
    items: list[Any] | None = None


_LIST_ENVELOPES: dict[tuple[type[BaseModel], str], TypeAdapter[Any]] = {}


def list_envelope(model: type[BaseModel], key: str) -> TypeAdapter[Any]:
    """The validator of a whole list reply (``key`` holding ``model`` items), built once."""
    adapter = _LIST_ENVELOPES.get((model, key))
    if adapter is None:
        items = cast("TypeForm[list[BaseModel] | None]", _list_of(model) | None)
        envelope = create_model(
            f"{model.__name__}ListReply",
            __base__=_ListEnvelope,
            items=(items, Field(default=None, alias=key)),
        )
        adapter = _LIST_ENVELOPES[(model, key)] = TypeAdapter(envelope)
    return adapter


def decode_reply(
    method: str, url: str, response: Reply, token: str, *, body_optional: bool = False
) -> Json | PlatformError:
    """The reply's JSON object, or the error it stands for (never raised here).

    With ``body_optional`` a success status needs no JSON object: a reply without one
    is ``{}`` (an error envelope with ``success: false`` is still an error).
    """
    status = response.status_code
    try:
        # pydantic-core's parser: about twice as fast as json.loads (bench/client.py).
        # Only keys are kept in its cache of strings: a value kept there (up to 16,384
        # of them, for the life of the process) held the memory of the reply it came in.
        payload = from_json(response.content, cache_strings=CACHED_STRINGS)
    except ValueError:
        payload = None
        if body_optional and status < 400:
            return {}
        if status < 400 or response.content.strip():
            kind = "an empty reply" if not response.content.strip() else "a reply that is not JSON"
            if status >= 400:
                return ApiError(status, f"HTTP {status}: {kind}", method=method, url=url)
            return MalformedResponse(
                f"The platform sent {kind} (HTTP {status})",
                status=status,
                method=method,
                url=url,
            )
    if status >= 400 or (isinstance(payload, dict) and payload.get("success") is False):
        # The envelope's message; a bare JSON string is one too (the vendor's reference
        # gives ``POST /conversation/batch`` a 401 of "Unauthorized Request" alone).
        message = payload.get("message") if isinstance(payload, dict) else payload
        if not isinstance(message, str) or not message.strip():
            message = f"HTTP {status} {response.reason_phrase}".strip()
        return ApiError(status, redact_text(message, token), method=method, url=url, body=payload)
    if not isinstance(payload, dict):
        if body_optional:
            return {}
        return MalformedResponse(
            f"The platform sent JSON that is not an object (HTTP {status})",
            status=status,
            method=method,
            url=url,
        )
    return payload


def _bad_fields(exc: ValidationError, skip: int = 0) -> str:
    """The first few failing locations, without the values (they may hold secrets)."""
    return ", ".join(".".join(str(p) for p in e["loc"][skip:]) or "reply" for e in exc.errors()[:3])


def parse_model(model: type[ModelT], value: Any, *, method: str = "", url: str = "") -> ModelT:
    try:
        return model.model_validate(value if value is not None else {})
    except ValidationError as exc:
        fields = _bad_fields(exc)
    # Raised outside the except block, so the ValidationError does not ride along.
    raise MalformedResponse(
        f"The platform's reply has fields of an unexpected type: {fields}", method=method, url=url
    )


def no_list(key: str, url: str) -> MalformedResponse:
    """A reply without the list it is for: not an empty list (nothing is known of them)."""
    return MalformedResponse(f"The platform's reply holds no {key!r} list", method="GET", url=url)


def parse_list(model: type[ModelT], payload: Json, key: str, url: str) -> list[ModelT]:
    """The ``key`` list of a reply as models; null items skipped.

    Raises:
        MalformedResponse: the reply holds no such list (absent or null: an empty list
            is ``[]``), or not a list, or items that do not fit ``model``.
    """
    items = payload.get(key)
    if items is None:
        raise no_list(key, url)
    if not isinstance(items, list):
        raise MalformedResponse(f"The platform's reply has {key!r} that is not a list", url=url)
    # A null item is no record: skipped (and counted), so that it does not cost the list
    # its others. (The fast path of `list_envelope` refuses it, and the reply comes here.)
    items = without_nulls(items)
    try:
        return _list_adapter(model).validate_python(items)
    except ValidationError as exc:
        fields = _bad_fields(exc, skip=1)
    raise MalformedResponse(
        f"The platform's reply has fields of an unexpected type: {fields}", url=url
    )
