"""Method sentences: lead-ins to a formula and roadmap sentences give no method unit; their formula does."""

from __future__ import annotations

import pytest

from sa_align.extract import extract_units
from sa_align.extract.method import is_lead_in, is_roadmap
from sa_align.models import UnitKind
from sa_align.paper import paper_from_text


@pytest.mark.parametrize(
    "sentence",
    [
        "The routing loss of the mixture is defined as:",
        "Hence, the smoothed objective for our router is",
        "Concretely, the baseline adds a hinge penalty to its loss function:",
        "At round $r$, the update rule is:",
        "where $Z$ is given by",
        "The gate scores are computed as follows:",
    ],
)
def test_a_sentence_announcing_the_formula_after_it_is_a_lead_in(sentence: str) -> None:
    assert is_lead_in(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Gate refresh: after each round, we update the gate $g_{r+1}$ by adding uniform noise as:",
        "The router is retrained.",
        "The temperature is $0.7$.",
        "We scale the logits by $1/\\tau$ before the softmax.",
    ],
)
def test_a_sentence_stating_what_is_done_is_no_lead_in(sentence: str) -> None:
    assert not is_lead_in(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Finally, we introduce the shared expert cache used at decoding time.",
        "We first describe the gate, followed by the balancing term.",
        "In this section, we explain how the experts are trained.",
        "For brevity, the details are deferred to Appendix C.",
        "The details of the penalty are listed in the supplementary material.",
        "We will present the full derivation of the router update.",
        "Below, we review the basic notation of sparse mixtures.",
    ],
)
def test_a_sentence_announcing_what_a_section_presents_is_a_roadmap(sentence: str) -> None:
    assert is_roadmap(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "We introduce a temperature $\\tau$ that scales the router logits.",
        "We first normalize the scores, then keep the two largest.",
        "We present each token to the two experts with the highest score.",
        "$$ g = \\mathrm{softmax}(W x) $$ in this section, we",
    ],
)
def test_a_method_step_is_no_roadmap(sentence: str) -> None:
    assert not is_roadmap(sentence)


def test_the_display_after_a_lead_in_is_the_method_unit_and_a_roadmap_gives_no_order() -> None:
    text = (
        "# Method\n\nWe first describe the gate, followed by the balancing term.\n\n"
        "The balancing term of the router is defined as:\n\n$$ L_{bal} = N \\sum_i f_i p_i $$\n\n"
        "We first normalize the scores, then keep the two largest.\n"
    )
    units = extract_units(paper_from_text(text))
    methods = [u.quote for u in units if u.kind == UnitKind.METHOD]
    assert any(q.startswith("$$ L_{bal}") for q in methods)
    assert not any(q.startswith("The balancing term") for q in methods)
    orders = [u.order for u in units if u.kind == UnitKind.ORDERING]
    assert orders and all("the gate" not in " ".join(o) for o in orders)


def test_background_sections_give_units_only_in_the_papers_own_voice() -> None:
    text = (
        "# 1 Introduction\n\nSparse mixtures typically route each token with a learned softmax gate over all experts.\n\n"
        "We propose a router that caches the gate scores of every layer and reuses them at decoding time.\n\n"
        "# 2 Preliminaries\n\nA mixture layer is defined by the tuple $(E, g)$ of experts $E$ and a gate $g(x) = W x$.\n\n"
        "# 3 Method\n\nA mixture layer is defined by the tuple $(E, g)$ of experts $E$ and a gate $g(x) = W x$.\n"
    )
    units = [u for u in extract_units(paper_from_text(text)) if u.kind == UnitKind.METHOD]
    sections = [(u.section, u.quote[:20]) for u in units]
    assert ("1 Introduction", "We propose a router ") in sections
    assert not any(s == "2 Preliminaries" for s, _ in sections)
    assert ("3 Method", "A mixture layer is d") in sections
    assert not any(q.startswith("Sparse mixtures") for _, q in sections)


@pytest.mark.parametrize(
    ("title", "bare"),
    [("1 Introduction", "introduction"), ("1 INTRODUCTION", "introduction"), ("A LIMITATIONS", "limitations"),
     ("B.2. Implementation Details", "implementation details"), ("IV. Related Work", "related work"),
     ("Introduction", "introduction")],
)
def test_section_numbers_are_stripped_without_eating_the_title(title: str, bare: str) -> None:
    from sa_align.extract.text import bare_title

    assert bare_title(title) == bare


def test_analysis_sections_give_units_only_for_what_the_paper_runs() -> None:
    text = (
        "# 3 Method\n\nWe compute the gate score $g(x) = \\mathrm{softmax}(W x)$ of every token.\n\n"
        "# 4 Convergence Analysis\n\nThe gate score $g(x) = \\mathrm{softmax}(W x)$ is Lipschitz in $W$ with constant $L = 2$.\n\n"
        "In our experiments we use a temperature of $\\tau = 0.5$ for the gate score $g(x) = \\mathrm{softmax}(W x / \\tau)$.\n\n"
        "## 4.1 Step 1: an auxiliary router\n\nLet the auxiliary router be $h(x) = W^\\top x$ with the same weights.\n\n"
        "# A Dual Spaces\n\nThe dual of a space $U$ is the set $U' = \\{\\ell : U \\to \\mathbb{R}\\}$ of linear maps.\n"
    )
    units = extract_units(paper_from_text(text))
    quotes = [u.quote for u in units]
    assert any(q.startswith("We compute the gate score") for q in quotes)
    assert any(q.startswith("In our experiments we use a temperature") for q in quotes)
    assert not any(q.startswith(("The gate score", "Let the auxiliary router", "The dual of a space")) for q in quotes)


@pytest.mark.parametrize(
    "sentence",
    [
        "It can be verified that $g(0) = 0$, hence the router is unbiased.",
        "It is easy to see that the gate satisfies $\\sum_i g_i(x) = 1$.",
        "where (a) follows from the triangle inequality and $W^\\top W = I$.",
        "By Lemma 3, we obtain $g(x) = g(y) + \\nabla g(\\xi)(x - y)$ for the router.",
        "The identity $\\sum_i g_i(x) = 1$ holds for all inputs $x$ of the router.",
        "There exist constants $c_1, c_2 > 0$ such that $\\ell_T = c_1 T + c_2$ for the router.",
        "The router then reaches a regret of $\\mathcal{O}(\\sqrt{T})$ with step size $\\eta = 1/\\sqrt{T}$.",
        "This gives a sublinear convergence rate for the gate update $W_{t+1} = W_t - \\eta \\nabla \\ell$.",
    ],
)
def test_derivation_and_rate_sentences_give_no_unit(sentence: str) -> None:
    text = f"# 3 Method\n\nWe compute the gate score $g(x) = \\mathrm{{softmax}}(W x)$ of every token.\n\n{sentence}\n"
    units = extract_units(paper_from_text(text))
    assert units and not any(u.quote.startswith(sentence[:20]) for u in units)


@pytest.mark.parametrize(
    "sentence",
    [
        "The router is trained with the variational lower bound of the likelihood, $\\mathcal{L} = \\log p(x \\mid z) - D$.",
        "Therefore, the total iteration complexity of the router is $K N = 2 T$.",
        "Hence, we set the step size $\\eta = 0.01$ so that the gate update $W_{t+1} = W_t - \\eta \\nabla \\ell$ converges.",
    ],
)
def test_claims_near_derivation_words_stay(sentence: str) -> None:
    text = f"# 3 Method\n\n{sentence}\n"
    units = extract_units(paper_from_text(text))
    assert any(u.quote.startswith(sentence[:20]) for u in units)
