"""The verdict cache: an LLM verdict, once given, is the verdict from then on.

Keyed by (table version, puzzle id, question normalized with the ``judge``
preset, model), stored in the project's database (table ``llm_verdicts``,
Alembic revision ``0002_llm``). The same or an equivalently-normalized
question is answered from here with no LLM call, which makes the fallback
deterministic; ``sadame rules suggest`` reads the rows back as candidate rules.

The first verdict stored for a key wins: concurrent writers that race on the
same key all end up returning the stored row.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import DateTime, Engine, Index, Integer, String, Text, UniqueConstraint, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column
from sqlalchemy.sql.elements import ColumnElement

from sadame.db import Base, make_engine, upgrade

__all__ = ["CachedVerdict", "VerdictCache", "VerdictRow", "question_hash"]


class VerdictRow(Base):
    """One cached LLM verdict (table ``llm_verdicts``)."""

    __tablename__ = "llm_verdicts"
    __table_args__ = (
        UniqueConstraint("table_version", "puzzle_id", "question_hash", "model", name="uq_llm_verdicts_key"),
        Index("ix_llm_verdicts_table_name", "table_name", "puzzle_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_name: Mapped[str] = mapped_column(String(200), nullable=False)
    table_version: Mapped[str] = mapped_column(String(64), nullable=False)
    puzzle_id: Mapped[str] = mapped_column(String(200), nullable=False)
    question_hash: Mapped[str] = mapped_column(String(64), nullable=False)
    normalized: Mapped[str] = mapped_column(Text, nullable=False)
    question: Mapped[str] = mapped_column(Text, nullable=False)
    model: Mapped[str] = mapped_column(String(200), nullable=False)
    verdict: Mapped[str] = mapped_column(String(100), nullable=False)
    hits: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    last_hit_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


@dataclass(frozen=True)
class CachedVerdict:
    """A cached verdict as read back: the key, the first question that produced it, usage."""

    table_name: str
    table_version: str
    puzzle_id: str | None
    normalized: str
    question: str
    model: str
    verdict: str
    hits: int
    created_at: datetime

    def to_dict(self) -> dict[str, object]:
        return {
            "table_name": self.table_name,
            "table_version": self.table_version,
            "puzzle_id": self.puzzle_id,
            "normalized": self.normalized,
            "question": self.question,
            "model": self.model,
            "verdict": self.verdict,
            "hits": self.hits,
            "created_at": self.created_at.isoformat(),
        }


def question_hash(normalized: str) -> str:
    """sha256 hex of the normalized question: a fixed-width key column for any question length."""
    return hashlib.sha256(normalized.encode("utf-8")).hexdigest()


def _row_to_cached(row: VerdictRow) -> CachedVerdict:
    return CachedVerdict(
        table_name=row.table_name,
        table_version=row.table_version,
        puzzle_id=row.puzzle_id or None,
        normalized=row.normalized,
        question=row.question,
        model=row.model,
        verdict=row.verdict,
        hits=row.hits,
        created_at=row.created_at,
    )


class VerdictCache:
    """Read and write cached verdicts in the database at ``url`` (see :func:`sadame.db.resolve_url`).

    ``migrate=True`` applies the schema (``sadame.db.upgrade``) on construction;
    leave it on for a CLI or a test, turn it off where migrations are run by
    deployment.
    """

    def __init__(self, url: str | Engine | None = None, *, migrate: bool = True) -> None:
        self._engine = url if isinstance(url, Engine) else make_engine(url)
        if migrate:
            upgrade(self._engine)

    @property
    def engine(self) -> Engine:
        return self._engine

    def get(self, *, table_version: str, puzzle_id: str | None, normalized: str, model: str) -> str | None:
        """The cached verdict for the key, counting the hit (one UPDATE ... RETURNING); None when absent."""
        key = self._key(table_version, puzzle_id, normalized, model)
        statement = (
            update(VerdictRow)
            .where(*key)
            .values(hits=VerdictRow.hits + 1, last_hit_at=datetime.now(UTC))
            .returning(VerdictRow.verdict)
        )
        with self._engine.begin() as connection:
            return connection.execute(statement).scalar_one_or_none()

    def put(
        self,
        *,
        table_name: str,
        table_version: str,
        puzzle_id: str | None,
        normalized: str,
        question: str,
        model: str,
        verdict: str,
    ) -> str:
        """Store ``verdict`` for the key unless one is stored already; return the stored verdict."""
        if not normalized:
            raise ValueError("an empty normalized question cannot be cached")
        row = VerdictRow(
            table_name=table_name,
            table_version=table_version,
            puzzle_id=puzzle_id or "",
            question_hash=question_hash(normalized),
            normalized=normalized,
            question=question,
            model=model,
            verdict=verdict,
            hits=0,
            created_at=datetime.now(UTC),
        )
        try:
            with Session(self._engine) as session, session.begin():
                session.add(row)
        except IntegrityError:
            pass  # someone stored this key first: theirs wins
        key = self._key(table_version, puzzle_id, normalized, model)
        with Session(self._engine) as session:
            stored = session.execute(select(VerdictRow.verdict).where(*key)).scalar_one_or_none()
        return stored if stored is not None else verdict

    def entries(
        self, *, table_version: str | None = None, table_name: str | None = None, puzzle_id: str | None = None
    ) -> Iterator[CachedVerdict]:
        """Cached verdicts, most asked first, optionally for one table version / name / puzzle."""
        query = select(VerdictRow)
        if table_version is not None:
            query = query.where(VerdictRow.table_version == table_version)
        if table_name is not None:
            query = query.where(VerdictRow.table_name == table_name)
        if puzzle_id is not None:
            query = query.where(VerdictRow.puzzle_id == puzzle_id)
        query = query.order_by(VerdictRow.puzzle_id, VerdictRow.hits.desc(), VerdictRow.id)
        with Session(self._engine) as session:
            rows = [_row_to_cached(row) for row in session.execute(query).scalars()]
        yield from rows

    @staticmethod
    def _key(
        table_version: str, puzzle_id: str | None, normalized: str, model: str
    ) -> tuple[ColumnElement[bool], ...]:
        return (
            VerdictRow.table_version == table_version,
            VerdictRow.puzzle_id == (puzzle_id or ""),
            VerdictRow.question_hash == question_hash(normalized),
            VerdictRow.model == model,
        )
