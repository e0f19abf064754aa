"""Throughput of the command parser on a realistic mix of forum posts.

Run: .venv/bin/python benchmarks/bench_parser.py [seconds]
Prints messages per second (single thread, warm caches, as on a live game).
"""

from __future__ import annotations

import sys
import time

from forumbot.language.parse import parse
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


def main(seconds: float = 2.0) -> None:
    for m in MIX:  # warm the caches (OpenCC converter, folded roster)
        parse(m, ROSTER, sender_seat=1)
    n = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for m in MIX:
            parse(m, ROSTER, sender_seat=1)
        n += len(MIX)
    chars = sum(map(len, MIX)) / len(MIX)
    print(f"{n / elapsed:,.0f} messages/s ({elapsed / n * 1e6:.1f} µs each, mean {chars:.0f} chars, {n} parsed)")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 2.0)
