"""Reading how long a provider asks us to wait before a retry."""

from __future__ import annotations

import email.utils
import time

import pytest

from sa_align.llm.errors import retry_after


@pytest.mark.parametrize(
    ("headers", "expected"),
    [({"retry-after": "2"}, 2.0), ({"retry-after-ms": "250"}, 0.25), ({"retry-after": "soon"}, None), ({}, None)],
)
def test_retry_after_header_parsing(headers: dict, expected: float | None) -> None:
    class Fake(Exception):
        litellm_response_headers = headers

    assert retry_after(Fake()) == expected


def test_retry_after_http_date() -> None:
    class Fake(Exception):
        litellm_response_headers = {"retry-after": email.utils.formatdate(time.time() + 30, usegmt=True)}

    assert 25 <= retry_after(Fake()) <= 31
