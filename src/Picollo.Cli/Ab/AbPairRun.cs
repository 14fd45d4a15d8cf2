using System.Diagnostics;
using System.Globalization;
using System.Net.Sockets;
using System.Text;
using Picollo.Measurement.Engine;
using Picollo.Measurement.Paired;

namespace Picollo.Cli.Ab;

/// <summary>
/// One process pair of <c>picollo ab</c> (docs/VERDICTS.md, "Base against head"): the base build's and the head build's
/// test programs started on the same test methods at the same time (a round's tests of one project, in turn: a process
/// start, discovery and the runtime's own warmup are paid once per pair, not once per test), each measurement of theirs
/// coordinated over a Unix socket (<see cref="PairedPeer"/> is the workers' side): one side warms up and calibrates
/// at a time, both agree on
/// the operations per sample, then their samples alternate in lock-step, the side that goes first alternating ABBA as in
/// <see cref="PairedSampling.ReferenceFirst"/>. A measurement only one side takes (a test or region only one build has)
/// runs alone.
/// </summary>
internal static class AbPairRun
{
    /// <summary>
    /// Runs one process pair over <paramref name="tests"/>; a side without an assembly (tests only one build has) is not
    /// started.
    /// </summary>
    /// <param name="baseAssembly">The base build's assembly holding the tests, or <see langword="null"/>.</param>
    /// <param name="headAssembly">The head build's, or <see langword="null"/>.</param>
    /// <param name="tests">
    /// The test methods, in the order both builds are expected to run them (each worker runs them in its framework's order,
    /// which may differ per build; the result tells it).
    /// </param>
    /// <param name="pairIndex">The round: which side warms up first alternates with it.</param>
    /// <param name="cpu">The CPU both sides measure on.</param>
    /// <param name="timeout">How long a side may stay silent (not measuring, not exiting) before the pair is given up.</param>
    /// <param name="maxSamples">The most samples per side of a paired measurement (<see cref="AbOptions.SamplesPerPair"/>).</param>
    /// <param name="cancellation">Ctrl+C: both workers are stopped.</param>
    /// <returns>
    /// Per test, what each side measured and any problem; a test the pair never reached (a worker crashed on an earlier
    /// test) or measured on both sides but never paired is absent, to be run in a later pair; and each side's order.
    /// </returns>
    public static AbPairResult Run(
        AbTestAssembly? baseAssembly,
        AbTestAssembly? headAssembly,
        IReadOnlyList<AbTest> tests,
        int pairIndex,
        int cpu,
        TimeSpan timeout,
        int maxSamples,
        CancellationToken cancellation)
    {
        string folder = Directory.CreateTempSubdirectory("picollo-ab-").FullName;
        string channel = Path.Combine(folder, "channel");
        var order = new AbTestOrder(tests);
        try
        {
            using var listener = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
            listener.Bind(new UnixDomainSocketEndPoint(channel));
            listener.Listen(4);
            var sides = new List<Side>();
            try
            {
                if (baseAssembly is not null)
                    sides.Add(new Side("base", AbWorkerProcess.Start("base", baseAssembly, tests, channel, folder, cpu, pairIndex == 0)));
                if (headAssembly is not null)
                    sides.Add(new Side("head", AbWorkerProcess.Start("head", headAssembly, tests, channel, folder, cpu, pairIndex == 0)));
                using (cancellation.Register(() => sides.ForEach(static s => s.Worker.Kill())))
                {
                    Trouble? trouble = Coordinate(listener, sides, order, pairIndex, timeout, maxSamples, cancellation);
                    trouble = AwaitExits(sides, trouble, timeout);
                    cancellation.ThrowIfCancellationRequested();
                    Keep(folder, tests, pairIndex);
                    return AbPairOutcomes.Collect(folder, sides, order, trouble);
                }
            }
            finally
            {
                foreach (Side side in sides)
                {
                    side.Socket?.Dispose();
                    side.Worker.Dispose();
                }
            }
        }
        finally
        {
            try
            {
                Directory.Delete(folder, recursive: true);
            }
            catch (IOException)
            {
                // A temporary folder left behind, nothing more.
            }
        }
    }

    // Each worker's end: after a clean pair it exits by itself. After a problem, a few seconds for the crashing worker to
    // exit, so its exit code and last words explain it; the other worker waits on the channel for a peer that will not come,
    // and is stopped at once, not after those seconds (which were 5 of every crashed pair's 6). Returns the problem, if any.
    private static Trouble? AwaitExits(List<Side> sides, Trouble? trouble, TimeSpan timeout)
    {
        foreach (Side side in sides)
        {
            TimeSpan wait = trouble is null ? timeout
                : trouble.IsHang || (trouble.Side != side.Name && trouble.Side != "tool") ? TimeSpan.Zero
                : TimeSpan.FromSeconds(5);
            if (!side.Worker.WaitForExit(wait))
            {
                trouble ??= new Trouble(side.Name, AbMessages.WorkerDidNotExit(side.Name, timeout)) { IsHang = true };
                side.Worker.Kill();
            }
            else if (trouble is { IsHang: false } && trouble.Side == side.Name && side.Worker.ExitCode != 0)
            {
                string text = AbMessages.WorkerExitedMidMeasurement(side.Name, side.Worker.ExitCode, side.Worker.Tail());
                trouble = trouble with { Text = text };
            }
        }

        return trouble;
    }

    // The coordinator: waits for both sides' next BEGIN (or their end), pairs them when they name the same measurement,
    // lets one go alone otherwise; null when both sides ran to their end, else why the pair was given up.
    private static Trouble? Coordinate(
        Socket listener,
        List<Side> sides,
        AbTestOrder order,
        int pairIndex,
        TimeSpan timeout,
        int maxSamples,
        CancellationToken cancellation)
    {
        long lastProgress = Stopwatch.GetTimestamp();
        while (true)
        {
            cancellation.ThrowIfCancellationRequested();
            bool progressed = false;
            if (AcceptWorker(listener, sides, timeout, ref progressed) is { } stranger)
                return stranger;
            if (ReadStarts(listener, sides, ref progressed) is { } confused)
                return confused;
            if (sides.All(static s => s.Closed))
                return null;
            if (Dispatch(sides, order, pairIndex, maxSamples, ref progressed) is { } failed)
                return failed;

            if (progressed)
            {
                lastProgress = Stopwatch.GetTimestamp();
            }
            else if (Stopwatch.GetElapsedTime(lastProgress) > timeout)
            {
                Side silent = sides.FirstOrDefault(static s => !s.Closed && s.Pending is null) ?? sides[0];
                return new Trouble(silent.Name, AbMessages.WorkerSilent(silent.Name, timeout)) { IsHang = true };
            }
        }
    }

    // A worker's HELLO: the side it names takes the connection. Anyone else is trouble.
    private static Trouble? AcceptWorker(Socket listener, List<Side> sides, TimeSpan timeout, ref bool progressed)
    {
        if (!sides.Any(static s => s.Socket is null && !s.Closed) || !listener.Poll(50_000, SelectMode.SelectRead))
            return null;

        Socket accepted = listener.Accept();
        accepted.ReceiveTimeout = (int)timeout.TotalMilliseconds;
        string hello = ReadLine(accepted) ?? string.Empty;
        string[] words = hello.Split(' ');
        Side? side = words is ["HELLO", var name, ..] ? sides.FirstOrDefault(s => s.Name == name && s.Socket is null) : null;
        if (side is null)
        {
            accepted.Dispose();
            return new Trouble("tool", $"a process that is not one of this pair's workers connected ('{hello}').");
        }

        side.Socket = accepted;
        progressed = true;
        return null;
    }

    // Each side's next line, where one is waiting: the start of a measurement to pair (BEGIN) or to run alone (ALONE), or
    // its end; a side that exits without connecting has ended too.
    private static Trouble? ReadStarts(Socket listener, List<Side> sides, ref bool progressed)
    {
        foreach (Side side in sides)
        {
            if (side.Closed || side.Pending is not null)
                continue;
            if (side.Socket is null)
            {
                // A worker that exits without connecting measured nothing (its test failed or was skipped first).
                if (side.Worker.HasExited && !listener.Poll(0, SelectMode.SelectRead))
                {
                    side.Closed = true;
                    progressed = true;
                }

                continue;
            }

            if (!side.Socket.Poll(20_000, SelectMode.SelectRead))
                continue;
            string? line = ReadLine(side.Socket);
            progressed = true;
            if (line is null)
                side.Closed = true;
            else if (line.StartsWith("BEGIN ", StringComparison.Ordinal))
                side.Begin(line["BEGIN ".Length..], alone: false);
            else if (line.StartsWith("ALONE ", StringComparison.Ordinal))
                side.Begin(line["ALONE ".Length..], alone: true);
            else
                return new Trouble(side.Name, AbMessages.WorkerSaidUnexpected(side.Name, line));
        }

        return null;
    }

    // Both sides at the same measurement are paired; a side whose other has ended, or waits at another measurement, runs
    // alone (SOLO), an ALONE side first. Of two sides at different measurements the one goes alone whose measurement the
    // other has passed already (it can pair no more), else the one whose measurement comes first in the pair's order: the
    // other's test is not in this build or was skipped, or the builds run their tests in different orders (xunit's follows
    // the assembly's path, docs/VERDICTS.md "Base against head"); where the order cannot tell, as the round says (Earlier).
    private static Trouble? Dispatch(List<Side> sides, AbTestOrder order, int pairIndex, int maxSamples, ref bool progressed)
    {
        Side? first = sides.FirstOrDefault(static s => s.Pending is not null && s.Alone)
            ?? sides.FirstOrDefault(static s => s.Pending is not null);
        if (first is not null)
        {
            Side? other = sides.FirstOrDefault(s => s != first);
            if (!first.Alone && other is { Pending: { } key, Alone: false } && key == first.Pending)
            {
                if (Paired(sides[0], sides[1], pairIndex, maxSamples) is { } trouble)
                    return trouble;
                sides[0].Pending = sides[1].Pending = null;
                progressed = true;
            }
            else if (other is null || other.Closed || other.Pending is not null)
            {
                // The other side has ended, or waits for another measurement: one of the two runs alone while the other
                // waits (the rule above).
                Side alone = first.Alone || other is not { Pending: { } later, Alone: false } ? first
                    : other.HasBegun(first.Pending!) ? first
                    : first.HasBegun(later) ? other
                    : Earlier(order, first, other, pairIndex);
                Send(alone.Socket!, "SOLO");
                (alone.Solo, alone.Pending, alone.Alone) = (alone.Pending, null, false);
                progressed = true;
            }
        }

        return null;
    }

    // Of two sides waiting at different measurements neither has passed, the one whose measurement comes first in the pair's
    // order. Where the order cannot tell (two rows of one theory: each build orders its rows as it orders its tests), the
    // side turns with the round, so that each row is paired in some rounds.
    private static Side Earlier(AbTestOrder order, Side first, Side other, int pairIndex)
    {
        int compare = order.Compare(other.Pending!, first.Pending!);
        return compare < 0 ? other : compare > 0 ? first : pairIndex % 2 == 0 ? first : other;
    }

    // One paired measurement, both sides waiting at BEGIN of the same key: PREP, PILOT, OPS, READY one side at a time,
    // then the samples in lock-step. Null when it completed, else the problem.
    private static Trouble? Paired(Side baseSide, Side headSide, int pairIndex, int maxSamples)
    {
        Side first = pairIndex % 2 == 0 ? baseSide : headSide, second = first == baseSide ? headSide : baseSide;
        Side? current = null;
        try
        {
            current = first;
            Send(first.Socket!, "PREP");
            (long firstOps, int firstSamples) = Pilot(first);
            current = second;
            Send(second.Socket!, "PREP");
            (long secondOps, int secondSamples) = Pilot(second);
            long operations = Math.Max(firstOps, secondOps);
            // The tool ends the samples (E) at the cap, the workers' own count notwithstanding: a pair is one value of the
            // verdict, so its samples buy little once its batches' floors are steady, and the pair's wall time is the run's.
            int samples = Math.Min(Math.Min(firstSamples, secondSamples), maxSamples);
            foreach (Side side in (Side[])[first, second])
            {
                current = side;
                Send(side.Socket!, string.Create(CultureInfo.InvariantCulture, $"OPS {operations}"));
                Expect(side, "READY");
            }

            byte[] go = [(byte)'G'], answer = new byte[1];
            for (int k = 0; k < samples; k++)
            {
                (Side a, Side b) = PairedSampling.ReferenceFirst(k) ? (baseSide, headSide) : (headSide, baseSide);
                bool stop = false;
                foreach (Side side in (Side[])[a, b])
                {
                    current = side;
                    side.Socket!.Send(go);
                    if (side.Socket.Receive(answer) != 1)
                        return new Trouble(side.Name, $"the {side.Name} worker ended in the middle of a measurement's samples.");
                    stop |= answer[0] == (byte)'S';
                }

                // Stops only after a whole AB+BA unit, so each unit has one sample of each order.
                if (stop && k % 2 == 1)
                    break;
            }

            foreach (Side side in (Side[])[baseSide, headSide])
            {
                current = side;
                side.Socket!.Send([(byte)'E']);
            }

            return null;
        }
        catch (SocketException e) when (e.SocketErrorCode == SocketError.TimedOut)
        {
            int? seconds = current?.Socket?.ReceiveTimeout / 1000;
            return new Trouble(current?.Name ?? "tool", AbMessages.WorkerDidNotAnswer(current?.Name, seconds)) { IsHang = true };
        }
        catch (Exception e) when (e is SocketException or IOException or ObjectDisposedException)
        {
            return new Trouble(current?.Name ?? "tool", $"the {current?.Name} worker ended in the middle of a measurement ({e.Message}).");
        }
    }

    private static (long Operations, int Samples) Pilot(Side side)
    {
        string line = ReadLine(side.Socket!) ?? throw new IOException("the channel closed");
        string[] words = line.Split(' ');
        return words is ["PILOT", var ops, var samples]
            && long.TryParse(ops, NumberStyles.Integer, CultureInfo.InvariantCulture, out long o)
            && int.TryParse(samples, NumberStyles.Integer, CultureInfo.InvariantCulture, out int s)
            ? (o, s)
            : throw new IOException($"it said '{line}' where its pilot was expected");
    }

    private static void Expect(Side side, string expected)
    {
        string? line = ReadLine(side.Socket!);
        if (line != expected)
            throw new IOException($"it said '{line ?? "nothing"}' where {expected} was expected");
    }

    private static void Send(Socket socket, string line) => socket.Send(Encoding.UTF8.GetBytes(line + "\n"));

    // A line, or null when the other end closed.
    private static string? ReadLine(Socket socket)
    {
        var bytes = new List<byte>(64);
        var one = new byte[1];
        while (true)
        {
            if (socket.Receive(one) != 1)
                return bytes.Count == 0 ? null : Encoding.UTF8.GetString([.. bytes]);
            if (one[0] == (byte)'\n')
                return Encoding.UTF8.GetString([.. bytes]);
            bytes.Add(one[0]);
        }
    }

    // PICOLLO_AB_KEEP names a folder that keeps every pair's records, for a look at the samples behind a verdict (and the bench).
    private static void Keep(string folder, IReadOnlyList<AbTest> tests, int pairIndex)
    {
        if (Environment.GetEnvironmentVariable("PICOLLO_AB_KEEP") is not { Length: > 0 } keep)
            return;
        string name = tests.Count == 1 ? tests[0].ShortName : $"{tests[0].ShortName}+{tests.Count - 1}";
        string target = Path.Combine(keep, string.Create(CultureInfo.InvariantCulture, $"{name}.pair{pairIndex:D2}"));
        Directory.CreateDirectory(target);
        foreach (string file in Directory.GetFiles(folder, "*.json"))
            File.Copy(file, Path.Combine(target, Path.GetFileName(file)), overwrite: true);
    }

    // Why a pair was given up, and whose side it was (a head that crashes or hangs fails the test).
    internal sealed record Trouble(string Side, string Text)
    {
        public bool IsHang { get; init; }
    }

    // One side of the pair: its worker, its connection once the worker says HELLO, and the measurement it waits at.
    internal sealed class Side(string name, AbWorkerProcess worker)
    {
        public string Name { get; } = name;

        public AbWorkerProcess Worker { get; } = worker;

        public Socket? Socket { get; set; }

        public string? Pending { get; set; }

        // Every measurement key the side asked for, in its order: the order its framework runs its tests in.
        public List<string> Began { get; } = [];

        // The measurement it was last told to take alone, until it asks for its next one: a side that ends or falls silent
        // before writing that measurement's record ended in it.
        public string? Solo { get; set; }

        // The pending measurement asked to run alone (ALONE: a comparison inside one build).
        public bool Alone { get; set; }

        public bool Closed { get; set; }

        // A measurement the worker is about to take: it waits for the tool's word.
        public void Begin(string key, bool alone)
        {
            (Pending, Alone, Solo) = (key, alone, null);
            Began.Add(key);
        }

        public bool HasBegun(string key) => Began.Contains(key, StringComparer.Ordinal);
    }
}
