using System.Globalization;
using System.Net.Sockets;
using System.Text;

namespace Picollo.Measurement.Engine;

/// <summary>
/// A worker process's side of <c>picollo ab</c> (docs/VERDICTS.md, "Base against head"): the base build's and the head
/// build's test processes run the same test at the same time, and every measurement they take is coordinated by the tool
/// over a Unix socket, so that their samples alternate in lock-step. The tool starts each worker with
/// <see cref="ChannelVariable"/>, <see cref="SideVariable"/> and <see cref="OutputVariable"/>; without them there is no
/// peer and nothing changes.
/// </summary>
/// <remarks>
/// <para>
/// The protocol, one measurement: the worker says <c>BEGIN key</c>; the tool answers <c>PREP</c> when this side may warm
/// up (one side at a time, so the two warmups do not compete for the cores), or <c>SOLO</c> when the other side does not
/// measure this key (a test or region only one build has), and the worker then measures alone as usual. After its pilot
/// the worker says <c>PILOT operations samples</c>; the tool answers <c>OPS n</c> (one count for both sides) when the
/// worker may calibrate, and the worker says <c>READY</c>. Then, per sample, the tool sends <c>G</c>, the worker takes one
/// sample and answers <c>D</c> (or <c>S</c>: past its deadline, it would stop), until the tool sends <c>E</c>.
/// </para>
/// <para>
/// The waits are blocking reads: while one side samples, the other sleeps in the kernel and uses no CPU, so the pair's
/// samples see the same machine one after the other, which is what pairing needs.
/// </para>
/// </remarks>
internal sealed class PairedPeer
{
    /// <summary>The Unix socket the tool listens on.</summary>
    public const string ChannelVariable = "PICOLLO_AB_CHANNEL";

    /// <summary>This worker's side: <c>base</c> or <c>head</c>.</summary>
    public const string SideVariable = "PICOLLO_AB_SIDE";

    /// <summary>The folder this worker writes its measurements to (<see cref="PairedRecord"/>).</summary>
    public const string OutputVariable = "PICOLLO_AB_OUTPUT";

    /// <summary>The CPU both workers pin their measuring thread to.</summary>
    public const string CpuVariable = "PICOLLO_AB_CPU";

    /// <summary>
    /// <c>1</c> in the workers of a test's first process pair, whose measurements count the simulated counters too
    /// (docs/COUNTERS.md, "Simulated counters"); they repeat exactly, so later pairs leave them out rather than pay a
    /// simulation worker's seconds again.
    /// </summary>
    public const string SimulateVariable = "PICOLLO_AB_SIMULATE";

    private static readonly Lazy<PairedPeer?> s_current = new(
        static () => FromEnvironment(Environment.GetEnvironmentVariable), LazyThreadSafetyMode.ExecutionAndPublication);

    private readonly Socket _socket;
    private readonly byte[] _one = new byte[1];
    private string _test = "measurement";
    private int _index;
    private int _written;

    private PairedPeer(Socket socket, string side, string output, int? cpu)
    {
        _socket = socket;
        Side = side;
        Output = output;
        Cpu = cpu;
    }

    /// <summary>This process's peer, or <see langword="null"/> when it is not a <c>picollo ab</c> worker.</summary>
    public static PairedPeer? Current => IsWorker ? s_current.Value : null;

    /// <summary>Whether this process was started as a <c>picollo ab</c> worker (the variables are set), connected or not.</summary>
    /// <remarks>Read when the type is first used, before <see cref="Current"/> clears the variables.</remarks>
    public static bool IsWorker { get; } = !string.IsNullOrEmpty(Environment.GetEnvironmentVariable(ChannelVariable));

    /// <summary><c>base</c> or <c>head</c>.</summary>
    public string Side { get; }

    /// <summary>The folder the measurements are written to.</summary>
    public string Output { get; }

    /// <summary>The CPU to pin to, when the tool chose one.</summary>
    public int? Cpu { get; }

    /// <summary>Names the test whose measurements follow (their keys are the test's name and their order in it).</summary>
    /// <param name="displayName">The test's display name, e.g. <c>WordsPerf.Count</c> or <c>FnvPerf.Hash(64)</c>.</param>
    public void BeginTest(string displayName)
    {
        ArgumentNullException.ThrowIfNull(displayName);
        _test = displayName;
        _index = 0;
    }

    /// <summary>
    /// Starts one measurement: blocks until the tool lets this side warm up, and says whether the other side measures the
    /// same key at the same time.
    /// </summary>
    /// <returns>The turn to take the measurement's stages on.</returns>
    /// <exception cref="IOException">The tool went away: the measurement cannot be coordinated.</exception>
    public PairedTurn Begin()
    {
        string key = string.Create(CultureInfo.InvariantCulture, $"{_test}#{_index++}");
        WriteLine("BEGIN " + key.Replace('\n', ' '));
        string answer = ReadLine();
        return answer switch
        {
            "PREP" => new PairedTurn(this, _test, key, paired: true),
            "SOLO" => new PairedTurn(this, _test, key, paired: false),
            _ => throw Protocol(answer),
        };
    }

    /// <summary>
    /// Starts a measurement the tool must not pair (a <c>Perf.Compare</c>, whose two sides are paired inside this process):
    /// blocks until the other side is not measuring, and runs alone.
    /// </summary>
    /// <exception cref="IOException">The tool went away.</exception>
    public void BeginAlone()
    {
        string key = string.Create(CultureInfo.InvariantCulture, $"{_test}#{_index++}");
        WriteLine("ALONE " + key.Replace('\n', ' '));
        string answer = ReadLine();
        if (answer != "SOLO")
            throw Protocol(answer);
        WriteFile("relative", PairedRecord.RelativeJson(_test, Side));
    }

    /// <summary>Writes a test's failure (the assertion or exception that ended it) for the tool's report.</summary>
    /// <param name="displayName">The test.</param>
    /// <param name="message">What failed.</param>
    public void WriteFailure(string displayName, string message) =>
        WriteFile("failure", PairedRecord.FailureJson(displayName, Side, message));

    /// <summary>
    /// Writes why a test measured nothing on this side (skipped: its code is not what ships, no counter could be checked).
    /// </summary>
    /// <param name="displayName">The test.</param>
    /// <param name="reason">The skip's reason.</param>
    public void WriteSkip(string displayName, string reason) =>
        WriteFile("skipped", PairedRecord.SkippedJson(displayName, Side, reason));

    /// <summary>Writes one measurement's record.</summary>
    internal void WriteRecord(string json) => WriteFile("measurement", json);

    internal void WriteLine(string line)
    {
        byte[] bytes = Encoding.UTF8.GetBytes(line + "\n");
        _socket.Send(bytes);
    }

    internal string ReadLine()
    {
        var bytes = new List<byte>(32);
        while (true)
        {
            int b = ReadByte();
            if (b == '\n')
                return Encoding.UTF8.GetString([.. bytes]);
            bytes.Add((byte)b);
        }
    }

    /// <summary>One byte from the tool, blocking; allocates nothing (the sampling loop calls it between samples).</summary>
    /// <exception cref="IOException">The tool closed the channel.</exception>
    internal int ReadByte()
    {
        if (_socket.Receive(_one.AsSpan()) != 1)
            throw new IOException("picollo ab closed its channel to this worker while a measurement was coordinated.");
        return _one[0];
    }

    /// <summary>One byte to the tool; allocates nothing.</summary>
    internal void WriteByte(byte value)
    {
        _one[0] = value;
        _socket.Send(_one.AsSpan());
    }

    internal static IOException Protocol(string answer) =>
        new(MeasurementMessages.AbProtocolUnknown(answer));

    private void WriteFile(string kind, string json)
    {
        string name = string.Create(CultureInfo.InvariantCulture, $"{Side}.{kind}.{Interlocked.Increment(ref _written):D4}.json");
        string path = Path.Combine(Output, name);

        // Written whole and renamed, so the tool never reads half a record of a worker it had to stop.
        File.WriteAllText(path + ".tmp", json, new UTF8Encoding(encoderShouldEmitUTF8Identifier: false));
        File.Move(path + ".tmp", path, overwrite: true);
    }

    private static PairedPeer? FromEnvironment(Func<string, string?> environment)
    {
        if (environment(ChannelVariable) is not { Length: > 0 } channel)
            return null;
        string side = environment(SideVariable) is { Length: > 0 } s ? s : "head";
        string output = environment(OutputVariable) is { Length: > 0 } o ? o : Path.GetTempPath();
        int? cpu = int.TryParse(environment(CpuVariable), NumberStyles.Integer, CultureInfo.InvariantCulture, out int c) && c >= 0
            ? c
            : null;

        // Read once: a process the test itself starts (a tool, a server) must not join the comparison.
        foreach (string variable in (string[])[ChannelVariable, SideVariable, OutputVariable, CpuVariable])
            Environment.SetEnvironmentVariable(variable, null);

        var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        try
        {
            socket.Connect(new UnixDomainSocketEndPoint(channel));
        }
        catch (SocketException e)
        {
            socket.Dispose();
            throw new IOException(MeasurementMessages.AbChannelClosed(channel, e.SocketErrorCode), e);
        }

        var peer = new PairedPeer(socket, side, output, cpu);
        peer.WriteLine(string.Create(CultureInfo.InvariantCulture, $"HELLO {side} {Environment.ProcessId}"));
        return peer;
    }
}
