"""Ordering judge: the order of located steps within a function."""

from __future__ import annotations

from sa_align.models import Label, Unit

STEPS = Unit(id="o", kind="ordering", claim="Images are cropped, flipped, then normalized.",
             order=["random crop", "horizontal flip", "normalize"])


async def test_stated_order_is_aligned(judged, calibrated):
    result = await judged("trainer").judge(STEPS)
    vote = next(v for v in result.verdicts if v.judge == "ordering")
    assert vote.label == Label.ALIGNED and [e.start_line for e in vote.evidence] == [28, 29, 30]
    if calibrated:  # the order alone does not lift a small repository's claim; no failure is shown either
        assert result.label == Label.UNDECIDED and result.calibration.applied == "abstain"
    else:
        assert result.label == Label.ALIGNED
        assert [e.start_line for e in result.evidence] == [28, 29, 30]


async def test_swapped_steps_are_mismatched(judged):
    swap = {"trainer/data.py": ("    img = horizontal_flip(img)\n    img = normalize(img)",
                                "    img = normalize(img)\n    img = horizontal_flip(img)")}
    result = await judged("trainer", swap).judge(STEPS)
    assert result.label == Label.MISMATCHED
    assert "out of the stated order" in result.reason


async def test_steps_through_calls_along_the_path(judged, calibrated):
    # In train_epoch, `preprocess(...)` (whose body normalizes) runs before the loss is computed.
    unit = Unit(id="o2", kind="ordering", claim="Inputs are normalized before the smoothed loss is computed.",
                order=["normalize", "smoothed cross entropy"])
    result = await judged("trainer").judge(unit)
    vote = next(v for v in result.verdicts if v.judge == "ordering")
    assert vote.label == Label.ALIGNED and [e.start_line for e in vote.evidence] == [24, 26]
    assert result.label == (Label.UNDECIDED if calibrated else Label.ALIGNED)


def test_a_step_fragment_without_words_is_not_a_step():
    from sa_align.judges.ordering import located_steps, step_matchers

    order = ["draw x from N(0", "I)", "run the reverse steps"]
    assert located_steps(order) == ["draw x from N(0", "run the reverse steps"]
    # Two real steps and three hints no longer pair hints with steps by position.
    assert all(len(m) == 1 for m in step_matchers(order, ["a", "b", "c"]))


async def test_steps_are_judged_only_where_code_performs_them(small):
    repo = small({"train.py": """
        import torch


        def save_checkpoint(model, optimizer, scheduler, path):
            state = {
                "scheduler": scheduler.state_dict(),
                "optimizer": optimizer.state_dict(),
                "model": model.state_dict(),
            }
            torch.save(state, path)


        def train_step(model, optimizer, scheduler, batch):
            loss = model(batch).mean()
            loss.backward()
            optimizer.step()
            scheduler.step()


        def load_images(folder):
            return sorted(folder.glob("*.png"))


        def accuracy(logits, labels):
            return (logits.argmax(-1) == labels).float().mean()


        def log_metrics(writer, values):
            for key, value in values.items():
                writer.add_scalar(key, value)


        if __name__ == "__main__":
            train_step(None, None, None, None)
            save_checkpoint(None, None, None, "ckpt.pt")
    """})
    unit = Unit(id="o", kind="ordering", claim="Step the optimizer, then step the scheduler.",
                order=["step the optimizer", "step the scheduler"])
    from sa_align.judges.ordering import judge_ordering

    ctx = repo.context(unit)
    # The saver ranks first: its keys name both steps, in the other order, but it performs neither.
    ctx.candidates.sort(key=lambda c: c.span.symbol != "save_checkpoint")
    assert ctx.candidates[0].span.symbol == "save_checkpoint"
    verdict = judge_ordering(ctx)
    assert verdict.label == Label.ALIGNED and "train_step" in verdict.reason, verdict.reason
