using System.Globalization;

namespace Picollo.Measurement.Engine;

/// <summary>
/// One measurement of a <c>picollo ab</c> worker (<see cref="PairedPeer"/>): the stages the tool lets it take, in the
/// protocol's order, and the record it writes at the end.
/// </summary>
internal sealed class PairedTurn
{
    private const byte Go = (byte)'G';
    private const byte End = (byte)'E';
    private const byte Done = (byte)'D';
    private const byte Stop = (byte)'S';

    private readonly PairedPeer _peer;

    internal PairedTurn(PairedPeer peer, string test, string key, bool paired)
    {
        _peer = peer;
        Test = test;
        Key = key;
        IsPaired = paired;
    }

    /// <summary>The test the measurement belongs to.</summary>
    public string Test { get; }

    /// <summary>The measurement's key: the test and the measurement's order in it.</summary>
    public string Key { get; }

    /// <summary>Whether the other side measures the same key beside this one; when not, the measurement runs alone as usual.</summary>
    public bool IsPaired { get; }

    /// <summary>The CPU to pin to, when the tool chose one.</summary>
    public int? Cpu => _peer.Cpu;

    /// <summary>
    /// After warmup and pilot: hands the tool this side's operations per sample and samples, and waits for the count both
    /// sides use (the larger, so neither side's sample boundary is over its share) and for this side's turn to calibrate.
    /// </summary>
    /// <param name="operations">The pilot's operations per sample.</param>
    /// <param name="samples">The samples this side wants.</param>
    /// <returns>The operations per sample both sides run.</returns>
    public long AgreeOperations(long operations, int samples)
    {
        _peer.WriteLine(string.Create(CultureInfo.InvariantCulture, $"PILOT {operations} {samples}"));
        string answer = _peer.ReadLine();
        return answer.StartsWith("OPS ", StringComparison.Ordinal)
            && long.TryParse(answer.AsSpan(4), NumberStyles.Integer, CultureInfo.InvariantCulture, out long agreed) && agreed >= 1
            ? agreed
            : throw PairedPeer.Protocol(answer);
    }

    /// <summary>After calibration: ready to sample.</summary>
    public void Ready() => _peer.WriteLine("READY");

    /// <summary>Blocks until the tool says to take the next sample (<see langword="true"/>) or that sampling has ended.</summary>
    /// <returns>Whether to take a sample.</returns>
    public bool WaitForGo()
    {
        int b = _peer.ReadByte();
        return b == Go || (b == End ? false : throw PairedPeer.Protocol(((char)b).ToString()));
    }

    /// <summary>Tells the tool a sample is taken, and whether this side is past its deadline and would stop.</summary>
    /// <param name="wouldStop">Past the deadline with the least samples taken.</param>
    public void Taken(bool wouldStop) => _peer.WriteByte(wouldStop ? Stop : Done);

    /// <summary>Writes the measurement's record for the tool.</summary>
    /// <param name="result">The measurement.</param>
    public void Complete(PerfResult result) => _peer.WriteRecord(PairedRecord.Json(this, _peer.Side, result));
}
