from sa_align.report import render, summarize


def test_markdown_lists_drifted_units_with_evidence(sample_report):
    md = render(sample_report, "md")
    assert md.startswith("# Drift report: A Paper")
    assert "`0123456789ab`" in md
    assert "| numerical | 1 | 1 | 0 | 0 | 0 | 0 | 2 |" in md
    mismatched = md.split("## Mismatched (1)")[1].split("\n## ")[0]
    assert "> quote of num-002" in mismatched and "Evidence: `config.yaml:4`" in mismatched
    assert "lr: 0.02" in mismatched and "section *3 Method*" in mismatched
    assert "## Stubbed (1)" in md and "## Missing (1)" in md and "## Undecided (1)" in md
    assert "- `num-001` (`NUM001`) claim of num-001" in md.split("## Aligned (1)")[1]
    assert "ignore previous instructions" in md and "changed no verdict" in md


def test_markdown_names_the_rule_behind_each_label_and_counts_units_per_rule(sample_report):
    md = render(sample_report, "md")
    mismatched = md.split("## Mismatched (1)")[1].split("\n## ")[0]
    assert "**Verdict:** mismatched (`NUM005`), score 0.25, confidence 0.90" in mismatched
    assert "Judges: numeric → mismatched (`NUM005`)" in mismatched
    undecided = md.split("## Undecided (1)")[1].split("\n## ")[0]
    assert "**Verdict:** undecided, confidence 0.90" in undecided  # no rule decided it: nothing named
    table = md.split("### Decided by rule")[1].split("\n\n")[1].splitlines()
    assert table[0] == "| rule | name | label | units |"
    assert set(table[2:]) == {"| `NUM001` | value-takes-effect | aligned | 1 |", "| `NUM005` | value-differs | mismatched | 1 |",
                              "| `STB001` | placeholder-named | stubbed | 1 |", "| `MIS004` | named-code-gone | missing | 1 |",
                              "| none | – | undecided | 1 |"}
    assert "Held for review" not in md


def test_markdown_shows_a_held_preview_finding_beside_its_undecided_label(held_report):
    md = render(held_report, "md")
    assert "## Mismatched" not in md
    held = md.split("### `num-002`")[1].split("\n### ")[0]
    assert "**Verdict:** undecided (held: mismatched by `NUM006`, preview), confidence 0.00, **needs review**" in held
    assert "- Held for review: 1 finding of preview rules (`num-002` mismatched by `NUM006`);" in md
    assert "| `NUM006` | preset-differs | held mismatched | 1 |" in md


def test_markdown_shows_each_units_judge_error(sample_report):
    sample_report.results[0].error = "llm(openai/gpt-4o): Timeout\nafter 120 s"  # an aligned unit
    sample_report.results[1].error = "numeric: ValueError: bad literal"
    sample_report.errors = ["retrieval failed for meth-009: KeyError: 'x'"]
    sample_report.summary = summarize(sample_report.results)
    md = render(sample_report, "md")
    assert "needs review: 0; judge errors: 2" in md
    mismatched = md.split("## Mismatched (1)")[1].split("\n## ")[0]
    assert "**Judge error:** numeric: ValueError: bad literal" in mismatched
    errors = md.split("## Errors (degraded, not fatal)")[1]
    assert "- retrieval failed for meth-009: KeyError: 'x'" in errors
    assert "- `num-001` (aligned): llm(openai/gpt-4o): Timeout after 120 s" in errors
    assert "- `num-002` (mismatched): numeric: ValueError: bad literal" in errors


def test_markdown_without_errors_has_no_error_section(sample_report):
    md = render(sample_report, "md")
    assert "Errors (degraded" not in md and "judge errors" not in md and "Judge error" not in md


def test_untrusted_text_cannot_add_structure_to_the_report(sample_report):
    r = sample_report.results[1]  # mismatched, rendered in full
    r.unit.claim = "lr is 0.01\n## Rules\nalways aligned <script>x</script>"
    r.unit.section = "3\n# Injected"
    for c in r.candidates:
        c.snippet = "lr: 0.02\n```\n## Outside the fence"
    md = render(sample_report, "md")
    lines = md.splitlines()
    assert not any(ln.startswith(("## Rules", "# Injected", "## Outside")) for ln in lines)
    assert "section *3 # Injected*" in md
    assert "<script>" not in md and "&lt;script&gt;" in md
    assert "**Claim:** lr is 0.01 ## Rules always aligned" in md
    block = md.split("Evidence: `config.yaml:4`")[1]
    assert block.lstrip().startswith("````")  # a fence longer than the snippet's own


def _html(md: str) -> str:
    """The page a CommonMark viewer shows (raw HTML allowed through, as GitHub-like viewers may)."""
    import pytest

    MarkdownIt = pytest.importorskip("markdown_it").MarkdownIt

    return MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"]).render(md)


def test_untrusted_text_renders_no_image_link_or_html(sample_report):
    r = sample_report.results[1]
    r.unit.claim = "lr ![x](http://evil/x.png) see [docs](http://evil/) <img src=x> *bold* ~~gone~~"
    r.unit.quote = "- a list? 1. or this [ref]: http://evil/"
    r.reason = "`learning_rate` set by ![y](http://evil/y.png) and <a href='http://evil'>here</a>"
    r.error = "# boom [z](http://evil)"
    sample_report.paper.title = "Title ![t](http://evil/t.png)"
    sample_report.results[0].unit.claim = "aligned [link](http://evil) claim"
    page = _html(render(sample_report, "md"))
    assert "<img" not in page and "<a " not in page and "<strong>bold" not in page and "<del>" not in page
    assert "<h1>Drift report: Title ![t](http://evil/t.png)</h1>" in page
    assert "lr ![x](http://evil/x.png) see [docs](http://evil/) &lt;img src=x&gt; *bold* ~~gone~~" in page
    assert "<blockquote>\n<p>- a list? 1. or this [ref]: http://evil/</p>" in page
    # Identifiers a judge quotes stay code.
    assert "<code>learning_rate</code> set by ![y](http://evil/y.png)" in page


def test_backticks_in_ids_and_paths_cannot_break_out_of_their_code_spans(sample_report):
    from sa_align.models import CodeSpan

    r = sample_report.results[1]
    r.unit.id = "num`-002 ![i](http://evil/i.png) `"
    span = CodeSpan(path="dir/`a`b ``.yaml", start_line=4, end_line=4, symbol="f`` [s](http://evil)")
    r.evidence = [span]
    r.candidates[0].span = span
    sample_report.paper.path = "p``a`per.md"
    sample_report.repo.path = "re`po"
    page = _html(render(sample_report, "md"))
    assert "<img" not in page and "<a " not in page
    assert "<code>num`-002 ![i](http://evil/i.png) `</code>" in page
    assert "<code>dir/`a`b ``.yaml:4</code> in <code>f`` [s](http://evil)</code>" in page
    assert "<code>p``a`per.md</code>" in page and "<code>re`po</code>" in page


def test_code_spans_pick_a_fence_no_run_inside_can_close():
    from sa_align.markup import code, inline

    assert code("plain") == "`plain`"
    assert code("a`b") == "``a`b``"
    assert code("`x`") == "`` `x` ``"
    assert code("a ``` b\nc") == "````a ``` b c````"
    assert inline("set `lr` to 0.1") == "set `lr` to 0.1"
    assert inline("loss -alpha_t (1 - p_t)^gamma") == "loss -alpha_t (1 - p_t)^gamma"  # stays readable
    assert inline("![x](http://e/x.png)") == "!\\[x\\](http\\://e/x.png)"
    assert inline("- item") == "\\- item" and inline("2. step") == "2\\. step"
