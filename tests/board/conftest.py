"""The board tests keep their screenshots where the report tests keep theirs (tests/artifacts/)."""

from tests.reports.conftest import artifacts  # noqa: F401  (a fixture, shared)
