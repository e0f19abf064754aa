"""Throughput of the command parser on a realistic mix of forum posts, and its worst cases.

Run: .venv/bin/python benchmarks/bench_parser.py [seconds]
Prints messages per CPU second (process time: a busy machine does not distort it; single thread, warm
caches, as on a live game) for private messages and
thread posts, then the slowest of the pathological inputs (2,000 and 10,000 repeated verb characters,
5,000 command lines) with the work the parser counted (tests/language bound that count; the time per
step is measured here, never in the tests).

Goal (issue 30): at least 20,000 messages a second by private message too. ``投张三 `` repeated in a private message
grew about quadratically up to the cap of 100 verbs (0.4 ms at 20 characters, 58 ms at 400: each verb's list read
the names of every verb after it again, uncounted) while the counted steps stayed linear; now each place's name is
read once for all the lists that run over it and the lists' names are counted in the steps (c0d92ab → issue 30, same
loaded machine, best of 5: ×5 (20 chars) 0.31 → 0.25 ms; ×100 (400 chars) 50.6 → 10.7 ms, 14,000 → 36,432 steps;
×2500 (10,000 chars) about 60 → 17 ms). Messages a second, c0d92ab → issue 30: pm 22,892 → 21,819, thread
23,049 → 23,618 (the same within the noise of the machine).
"""

from __future__ import annotations

import sys
import time

from forumbot.language.parse import parse, parse_counted
from forumbot.language.types import Roster

ROSTER = Roster.of(
    ["张三", "李四", "张三丰", "Big Bear", "王五", "王六", "Neo42", "劉備", "alice", "趙雲", "小红", "小虹",
     "晨曦", "Moonlight", "老K", "天天向上"],
    {"劉備": ["大耳"], "趙雲": ["子龙"], "alice": ["Ali"]},
)

# Roughly what a game thread and the judge's inbox carry: mostly chat, then votes, night actions.
MIX = [
    "法官好，我投3号，谢谢",
    "投票：张三，李四",
    "我投张三李四吧",
    "Vote: #3 #5",
    "##vote Big Bear",
    "今晚殺(shā)李四",
    "驗 劉備",
    "救自己",
    "线索 2",
    "状态",
    "延长 30分钟",
    "投张叁",
    "投 小宏",
    "> 投 李四\n我觉得3号发言有问题，投5号\n--\n我的签名档",
    "[quote=晨曦]我是好人，别投我[/quote]\n你昨天的发言很奇怪，我还是投你 晨曦",
    "我觉得这局狼人很可能在3号和5号之间，昨天晚上的刀口也说明了问题，大家怎么看？",
    "今天天气不错，大家加油",
    "I think Moonlight is lying about the check last night, but I have no clue yet.",
    "哈哈哈哈，笑死我了" * 3,
    "1楼说得对，我也觉得老K有点可疑，不过还要再观察一下他的发言。" * 4,
]


WORST = {
    "查×2000": "查" * 2000,
    "救×2000": "救" * 2000,
    "投×2000": "投" * 2000,
    "杀×2000": "杀" * 2000,
    "查×10000": "查" * 10_000,
    "vote×2000": "vote " * 2000,
    "投\\n×5000": "投\n" * 5000,
    "##vote x\\n×1100": "##vote x\n" * 1100,
    "prose×10000": ("我觉得他昨天的发言很有问题，" * 800)[:10_000],
    # each verb's list runs over the names after it (投张三 reads as 张三): issue 30
    "投张三␣×5": "投张三 " * 5,
    "投张三␣×100": "投张三 " * 100,
    "投张三␣×2500": "投张三 " * 2500,
}


def throughput(seconds: float, channel: str, rounds: int = 5) -> float:
    """Messages per CPU second: the best of ``rounds`` rounds (other load only ever slows a round)."""
    for m in MIX:  # warm the caches (OpenCC converter, folded roster)
        parse(m, ROSTER, sender_seat=1, channel=channel)
    best = 0.0
    for _ in range(rounds):
        n = 0
        start = time.process_time()
        while (elapsed := time.process_time() - start) < seconds / rounds:
            for m in MIX:
                parse(m, ROSTER, sender_seat=1, channel=channel)
            n += len(MIX)
        best = max(best, n / elapsed)
    return best


def worst(repeats: int = 5) -> list[tuple[str, str, float, int]]:
    """(input, channel, best time of ``repeats`` in seconds, counted steps), slowest first."""
    out = []
    for name, text in WORST.items():
        for channel in ("pm", "thread"):
            parse_counted(text, ROSTER, sender_seat=1, channel=channel)
            best = float("inf")
            for _ in range(repeats):
                t = time.process_time()
                _, work = parse_counted(text, ROSTER, sender_seat=1, channel=channel)
                best = min(best, time.process_time() - t)
            out.append((name, channel, best, work.steps))
    return sorted(out, key=lambda x: -x[2])


def main(seconds: float = 2.0) -> None:
    chars = sum(map(len, MIX)) / len(MIX)
    for channel in ("pm", "thread"):
        rate = throughput(seconds, channel)
        print(f"{channel:6} {rate:,.0f} messages/s ({1e6 / rate:.1f} µs each, mean {chars:.0f} chars)")
    rows = worst()
    name, channel, t, steps = rows[0]
    print(f"worst case: {name} ({channel}) {t * 1000:.2f} ms, {steps} steps ({t / steps * 1e9:.0f} ns a step)")
    for name, channel, t, steps in rows[1:]:
        print(f"            {name} ({channel}) {t * 1000:.2f} ms, {steps} steps")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 2.0)
