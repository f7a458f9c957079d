"""The public API's names: zsim.api defines them, zsim loads them on first
use (a module of its own so that ``import zsim`` need not import zsim.api).

The list is docs/api.md's "what is public"; every other name is private.
"""

PUBLIC_NAMES = [
    "games", "rules", "strategies", "simulate", "tournament", "tune", "analyze", "analyses", "analysis", "report",
    "record", "replay", "bench", "sweep", "compare", "balance", "view",
    "ZsimError", "OutputError", "Interrupted",
    "GameInfo", "RuleInfo", "StrategyInfo", "ParamInfo", "SimulateResult", "TournamentResult", "TuneResult",
    "Analysis", "AnalysisSpec", "Option", "ReportResult", "Records", "Replay", "ReplayedGame", "BenchResult",
]
