"""The roles of interview_vampire (夜访吸血鬼): 「游戏中有三种身份：人类（即平民）、吸血鬼、犯罪的吸血鬼。人类和吸血鬼
各自是一个阵营。犯罪的吸血鬼每人都是各自为战，独自追求胜利，不属于一个统一的阵营。」"""

HUMAN, VAMPIRE, CRIMINAL = "human", "vampire", "criminal"
#: role -> faction: each role is its own (the criminals' camp is each criminal alone)
ROLES = {HUMAN: HUMAN, VAMPIRE: VAMPIRE, CRIMINAL: CRIMINAL}
#: the players who suck blood at night: vampires and criminal vampires
BITERS = (VAMPIRE, CRIMINAL)
