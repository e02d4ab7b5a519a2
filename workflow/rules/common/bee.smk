# Spelling Bee: settings and targets of bee.smk.
# Included by workflow/rules/common.smk; only functions and values, no rules.


# ---------------------------------------------------------------- Spelling Bee (bee.smk)
# bee_masks gets TableRules (only the keys the mask table depends on), bee_puzzles gets
# BeeRules (every bee key but `lexicons`), each as `--settings JSON`; so changing a
# puzzle-only key (limits, score_by, require_pangram) reruns bee_puzzles only.
# bee_wordlist gets WordListRules, bee_schedule ScheduleRules (the schedule and its pages).
from puzzlesearch.bee.settings import BeeRules, ScheduleRules, WordListRules

try:
    BEE_RULES = BeeRules.from_config(config["bee"])
    BEE_WORDLIST_RULES = WordListRules.from_config(config["bee"])
    BEE_SCHEDULE_RULES = ScheduleRules.from_config(config["bee"])
except PuzzleError as _error:  # e.g. max_words below min_words: one line naming the key
    fail(_error)
BEE_LEXICONS = checked_lexicons(config["bee"]["lexicons"] or latin_lexicons(), "bee.lexicons")


def bee_targets():
    """The Spelling Bee stage's default outputs: mask, puzzle, word-list and schedule tables per lexicon."""
    return expand(
        "results/bee/{lexicon}/{table}.parquet",
        lexicon=BEE_LEXICONS,
        table=["masks", "puzzles", "wordlist", "schedule"],
    )
