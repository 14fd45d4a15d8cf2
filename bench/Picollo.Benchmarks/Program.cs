using Picollo.Benchmarks;

// One command per benchmark family; each writes its own section of bench/RESULTS.md.
string command = args.Length > 0 ? args[0] : string.Empty;
switch (command)
{
    case "record":
        return RecordBenchmark.Run();
    case "threads":
        return ThreadsBenchmark.Run();
    case "read":
        return ReadBenchmark.Run(args);
    case "tsc":
        return TscBenchmark.Run(args[1..]);
    case "verdicts":
        return VerdictsBenchmark.Run(args[1..]);
    case "paired":
        return PairedBenchmark.Run(args[1..]);
    case "ab":
        return AbBenchmark.Run(args[1..]);
    case "episodes":
        return EpisodesBenchmark.Run(args[1..]);
    case "levels":
        return LevelsBenchmark.Run(args[1..]);
    case "levels-child":
        return LevelsBenchmark.RunChild(args);
    case "floors":
        return FloorsBenchmark.Run(args[1..]);
    case "time-to-verdict":
        return TimeToVerdictBenchmark.Run(args[1..]);
    case "spans":
        return SpansBenchmark.Run(args[1..]);
    case "sim":
        return SimBenchmark.Run(args[1..]);
    case "sim-child":
        return SimBenchmark.RunChild(args);
    case "history":
        return HistoryBenchmark.Run(args[1..]);
    case "warmup":
        return WarmupBenchmark.Run(args[1..]);
    case "warmup-first" or "warmup-default":
        return WarmupBenchmark.RunChildCommand(args);
    case "changepoints":
        return ChangePointsBenchmark.Run(args[1..]);
    case "decide":
        return DecideBenchmark.Run(args[1..]);
    default:
        Console.Error.WriteLine("usage: dotnet run -c Release --project bench/Picollo.Benchmarks -- <command>");
        Console.Error.WriteLine("commands:");
        Console.Error.WriteLine("  decide [rounds]   what deciding a judgement from its evidence costs, per decision, beside one comparison and one measurement");
        Console.Error.WriteLine("  sim      simulated counters across fresh processes under noise: spread, +1 % caught");
        Console.Error.WriteLine("  record   single-threaded Record: Picollo vs HdrHistogram.NET vs a plain loop");
        Console.Error.WriteLine("  threads  Record from 1 and 2 threads: thread-local, interlocked, single-writer vs HdrHistogram.NET's concurrent types");
        Console.Error.WriteLine("  read     one perf_event group read per sample boundary vs a raw read() of the same fd");
        Console.Error.WriteLine("  tsc      per-read cost of the TSC readers, the TSC-only boundary, Stopwatch and clock_gettime");
        Console.Error.WriteLine("  verdicts [runs] [--modes idle,spinner,bursts] [--bodies short,allocating,long]   false failures and detections under noise (default 50 runs per arm)");
        Console.Error.WriteLine("  paired [runs] [--modes idle,spinner,bursts,process] [--bodies short,allocating,long]   Perf.Compare A/A and +2/+5/+10/+20 % beside the stored-baseline verdict on the same changes (default 50 runs per arm; writes bench/paired-results.md)");
        Console.Error.WriteLine("  ab [runs] [--modes idle,spinner,bursts,process] [--stored-runs N]   picollo ab's runner on three bodies, A/A and +5/+10/+20 %, beside the stored-baseline verdict (default 10 runs per arm)");
        Console.Error.WriteLine("  episodes [seconds]   the allocating body's two speeds: per second, the body beside a chain, an allocation and a memory-fill reference (default 300 s)");
        Console.Error.WriteLine("  levels [processes] [--modes idle,process] [--bodies count64,count71,tokenize,leveled]   a baseline recorded as PICOLLO_UPDATE_BASELINES=1 records it, then unchanged, 2× and 3× work judged in fresh processes (default 10 per arm)");
        Console.Error.WriteLine("  floors [runs] [idle|spinner|bursts] [short|allocating|long]   low quantiles (P1 … P50), allocation and machine speed of repeated default measurements of one verdict body (default 40, spinner, allocating)");
        Console.Error.WriteLine("  time-to-verdict [inprocess]   10 default measurements vs BenchmarkDotNet's default job (inprocess: its in-process toolchain, not the default job)");
        Console.Error.WriteLine("  spans [--quick]   an empty span vs the raw reads it is made of, with and without listeners, idle and with the other CPU busy");
        Console.Error.WriteLine("  spans service [pairs] [seconds] [alternating]   the sample service's throughput with spans on and off: process pairs, then processes alternating phases (build samples/TextKit.ObservedService first)");
        Console.Error.WriteLine("  history [runs] [--postgres <connection string>]   picollo history add of a 100-test run, and a report's series over the runs (default 1,000), SQLite and PostgreSQL (PICOLLO_TEST_POSTGRES)");
        Console.Error.WriteLine("  warmup [processes]   first measurements of fresh processes with a 200 ms budget: final code or not (default 10 per body); default wall times");
        Console.Error.WriteLine("  changepoints [--series 200] [--stationary 1000] [--seed 52]   the history's change-point detector on synthetic series with the benches' noise: recall and precision per step, false alarms (CPU only, under a minute)");
        return 2;
}
