"""A document in chunks for a search index, each with its provenance (pages, boxes on each
page, blocks, the span of document.md, heading path, article id).

Chunking follows the document's structure: an article of a statute or contract, a slide with
its speaker notes, or a section under a title is one chunk when it fits ``limit`` tokens; a
longer one is cut between paragraphs, then between sentences, never inside a table row or an
article's label; a heading with nothing under it goes with the section that follows it, and
short sections side by side under the same parent heading share a chunk. Paragraphs and
tables are joined across page breaks first (joined.py), and running headers and footers are
in no chunk."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from pagereader.config.options import ChunkTokenizer, Options, OutputOptions
from pagereader.structure.joined import Piece, document_pieces, union
from pagereader.structure.sections import Section, document_sections
from pagereader.structure.split import clauses, hard_cut, sentences, table_parts
from pagereader.structure.tokens import TokenCounter, token_counter
from pagereader.types import BBox, Chunk, ChunkBox, DocumentResult

DEFAULT_CHUNK_TOKENS: int = OutputOptions.model_fields["chunk_tokens"].default


@dataclass
class _Atom:
    """The smallest text a chunk is made of: a piece, or a sentence or row group of one."""

    text: str
    piece: Piece
    span: tuple[int, int]
    """Where the atom's text lies in its piece's (a table's row group: the whole piece)."""
    glue: str | None = None
    """What goes before it when the atom before is of the same paragraph (the whitespace
    between two sentences of it); None between paragraphs."""


@dataclass
class _Draft:
    """A chunk being made: its atoms and the section(s) they come from."""

    atoms: list[_Atom] = field(default_factory=list)
    heading_path: tuple[str, ...] = ()
    article_id: str | None = None
    mergeable: bool = True

    def text(self) -> str:
        return joined(self.atoms)


def joined(atoms: list[_Atom]) -> str:
    """Atoms as Markdown: paragraphs apart, sentences of one paragraph as they were."""
    out = ""
    for index, atom in enumerate(atoms):
        if index:
            same = atom.glue is not None and atoms[index - 1].piece is atom.piece
            out += atom.glue if same and atom.glue is not None else "\n\n"
        out += atom.text
    return out


def chunks(
    result: DocumentResult,
    chunk_tokens: int = DEFAULT_CHUNK_TOKENS,
    tokenizer: ChunkTokenizer = "o200k_base",
) -> tuple[Chunk, ...]:
    """The chunks of a parsed document, as ``parse`` writes them to chunks.jsonl: each within
    ``chunk_tokens`` tokens of ``tokenizer`` where a sentence or a table row allows."""
    return document_chunks(result, chunk_tokens, token_counter(tokenizer))


def chunks_jsonl(items: Iterable[Chunk]) -> str:
    """chunks.jsonl: one chunk a line, as JSON (UTF-8, not escaped)."""
    return "".join(chunk.model_dump_json() + "\n" for chunk in items)


def chunks_file(result: DocumentResult, options: Options) -> str:
    """chunks.jsonl of ``result``, cut as ``options.output`` says (what parse writes)."""
    output = options.output
    return chunks_jsonl(chunks(result, output.chunk_tokens, output.chunk_tokenizer))


def read_chunks_jsonl(text: str) -> tuple[Chunk, ...]:
    """The chunks of a chunks.jsonl text (the one reader of the format)."""
    return tuple(Chunk.model_validate_json(line) for line in text.splitlines() if line.strip())


def document_chunks(
    result: DocumentResult, limit: int = DEFAULT_CHUNK_TOKENS, count: TokenCounter | None = None
) -> tuple[Chunk, ...]:
    """The chunks of ``result``, in reading order, each within ``limit`` tokens where a
    sentence or table row allows (``count`` counts them; o200k_base by default)."""
    count = count or token_counter()
    pieces = document_pieces(result)
    drafts: list[_Draft] = []
    pending: list[_Draft] = []  # a heading with nothing under it yet
    for section in document_sections(result, pieces):
        made = _section_drafts(section, limit, count)
        if section.heading_only and not section.article_id:
            pending.extend(made)
            continue
        if pending and _fits(pending, made[0], limit, count):
            made[0].atoms[:0] = [a for d in pending for a in d.atoms]
            pending = []
        drafts.extend(pending)
        pending = []
        drafts.extend(made)
    drafts.extend(pending)
    drafts = _merged(drafts, limit, count)
    scales = {page.index: page.overlay_scale for page in result.pages}
    return tuple(_chunk(i, d, scales, count) for i, d in enumerate(drafts, start=1))


def _fits(before: list[_Draft], draft: _Draft, limit: int, count: TokenCounter) -> bool:
    text = "\n\n".join([*(d.text() for d in before), draft.text()])
    return count(text) <= limit


def _section_drafts(section: Section, limit: int, count: TokenCounter) -> list[_Draft]:
    """A section as drafts: whole when it fits, else its atoms packed in order."""

    def draft(atoms: list[_Atom]) -> _Draft:
        return _Draft(atoms, section.heading_path, section.article_id, section.mergeable)

    atoms = [_Atom(p.text, p, (0, len(p.text))) for p in section.pieces]
    if count(joined(atoms)) <= limit:
        return [draft(atoms)]
    small = [a for atom in atoms for a in _fitting(atom, limit, count)]
    drafts: list[_Draft] = []
    current: list[_Atom] = []
    for atom in small:
        if current and count(joined([*current, atom])) > limit:
            drafts.append(draft(current))
            current = []
        current.append(atom)
    if current:
        drafts.append(draft(current))
    return drafts


def _fitting(atom: _Atom, limit: int, count: TokenCounter) -> list[_Atom]:
    """An atom in atoms that fit ``limit``: a table by rows, text by sentences, a sentence
    too long by clauses, a clause too long by words (characters in Chinese)."""
    if count(atom.text) <= limit:
        return [atom]
    piece = atom.piece
    if piece.table is not None:
        html = piece.text.lstrip().startswith("<")
        texts = table_parts(piece.table, html, limit, count)
        return [
            small
            for group in _row_groups(texts, atom, html)
            for small in ([group] if count(group.text) <= limit else _cut(group, limit, count))
        ]
    return list(_located(_text_spans(atom.text, limit, count), atom))


def _text_spans(text: str, limit: int, count: TokenCounter) -> list[tuple[int, int]]:
    """Spans of ``text`` that fit ``limit``: its sentences, a sentence too long by clauses, a
    clause too long by words (characters in Chinese, tokens in a run without spaces)."""
    spans: list[tuple[int, int]] = []
    for sentence in sentences(text):
        if count(text[sentence[0] : sentence[1]]) <= limit:
            spans.append(sentence)
            continue
        for clause in clauses(text, sentence):
            fits = count(text[clause[0] : clause[1]]) <= limit
            spans.extend([clause] if fits else hard_cut(text, clause, limit, count))
    return spans


def _cut(group: _Atom, limit: int, count: TokenCounter) -> list[_Atom]:
    """A table's row group longer than a chunk (a row too long) cut as text, each part with
    the row group's place in the table and the whitespace that stood before it."""
    parts: list[_Atom] = []
    end = None
    for a, b in _text_spans(group.text, limit, count):
        glue = None if end is None else group.text[end:a]
        parts.append(_Atom(group.text[a:b], group.piece, group.span, glue))
        end = b
    return parts


def _row_groups(texts: list[str], atom: _Atom, html: bool) -> Iterable[_Atom]:
    """Atoms of a table's row groups, each spanning the table as written from its header
    (which each group repeats) to the group's last row; the whole table where that row is not
    written so (a table rebuilt from two pages)."""
    cursor = 0
    for text in texts:
        last = text[text.rfind("<tr>") : text.rfind("</tr>") + 5] if html else text.splitlines()[-1]
        at = atom.text.find(last, cursor) if last else -1
        if at < 0 or len(atom.piece.segments) != 1:
            yield _Atom(text, atom.piece, atom.span)
            continue
        cursor = at + len(last)
        yield _Atom(text, atom.piece, (atom.span[0], atom.span[0] + cursor))


def _located(spans: list[tuple[int, int]], atom: _Atom) -> Iterable[_Atom]:
    """Atoms of ``spans`` of ``atom``'s text, each with the whitespace that stood before it."""
    end = None
    for a, b in spans:
        glue = None if end is None else atom.text[end:a]
        end = b
        yield _Atom(atom.text[a:b], atom.piece, (atom.span[0] + a, atom.span[0] + b), glue)


def _merged(drafts: list[_Draft], limit: int, count: TokenCounter) -> list[_Draft]:
    """Side-by-side short sections under the same parent heading in one chunk (never an
    article or a slide: each is a chunk of its own)."""
    out: list[_Draft] = []
    for draft in drafts:
        last = out[-1] if out else None
        if (
            last is not None
            and last.mergeable
            and draft.mergeable
            and last.heading_path[:-1] == draft.heading_path[:-1]
            and (last.heading_path[:-1] or not (last.heading_path or draft.heading_path))
            and count(last.text() + "\n\n" + draft.text()) <= limit
        ):
            last.atoms.extend(draft.atoms)
            last.heading_path = _common(last.heading_path, draft.heading_path)
            continue
        out.append(draft)
    return out


def _common(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


def _chunk(
    number: int, draft: _Draft, scales: dict[int, float | None], count: TokenCounter
) -> Chunk:
    blocks: list[tuple[int, int]] = []
    boxes: dict[int, BBox] = {}
    pages: set[int] = set()
    spans: list[tuple[int, int]] = []
    pictures: list[tuple[int, int]] = []
    for atom in draft.atoms:
        piece = atom.piece
        if piece.picture_text:
            pictures.extend(b for b in piece.blocks if b not in pictures)
        spans.append(piece.md_of(*atom.span))
        pages.update(piece.pages if not piece.segments else ())
        for segment in piece.covering(*atom.span):
            page = segment.block[0]
            pages.add(page)
            if segment.block not in blocks:
                blocks.append(segment.block)
            boxes[page] = union(boxes[page], segment.box) if page in boxes else segment.box
    text = draft.text()
    return Chunk(
        id=f"c{number:04d}",
        text=text,
        heading_path=draft.heading_path,
        article_id=draft.article_id,
        pages=tuple(sorted(pages)),
        boxes=tuple(_box(page, box, scales.get(page)) for page, box in sorted(boxes.items())),
        blocks=tuple(blocks),
        picture_text=tuple(pictures),
        md_start=min(a for a, _ in spans),
        md_end=max(b for _, b in spans),
        tokens=count(text),
    )


def _box(page: int, bbox: BBox, scale: float | None) -> ChunkBox:
    rounded: BBox = (round(bbox[0], 2), round(bbox[1], 2), round(bbox[2], 2), round(bbox[3], 2))
    pixels = None
    if scale is not None:
        x0, y0, x1, y1 = (round(v * scale, 1) for v in bbox)
        pixels = (x0, y0, x1, y1)
    return ChunkBox(page=page, bbox=rounded, pixel_bbox=pixels)
