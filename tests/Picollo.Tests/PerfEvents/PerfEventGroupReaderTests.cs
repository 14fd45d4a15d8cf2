using System.Buffers.Binary;
using Picollo.PerfEvents;
using Shouldly;
using Xunit;

namespace Picollo.Tests.PerfEvents;

public sealed class PerfEventGroupReaderTests
{
    private static byte[] Group(ulong enabled, ulong running, params (ulong Value, ulong Id)[] entries)
    {
        var bytes = new byte[24 + (16 * entries.Length)];
        BinaryPrimitives.WriteUInt64LittleEndian(bytes, (ulong)entries.Length);
        BinaryPrimitives.WriteUInt64LittleEndian(bytes.AsSpan(8), enabled);
        BinaryPrimitives.WriteUInt64LittleEndian(bytes.AsSpan(16), running);
        for (int i = 0; i < entries.Length; i++)
        {
            BinaryPrimitives.WriteUInt64LittleEndian(bytes.AsSpan(24 + (16 * i)), entries[i].Value);
            BinaryPrimitives.WriteUInt64LittleEndian(bytes.AsSpan(32 + (16 * i)), entries[i].Id);
        }

        return bytes;
    }

    [Fact]
    public void Parse_IdsInAnotherOrder_MatchesValuesById()
    {
        byte[] data = Group(1000, 800, (30, 77), (10, 55), (20, 66));
        var values = new Picollo.Interop.PerfEventValue[3];

        PerfEventGroupReader.Parse(data, [55, 66, 77], values).ShouldBe(PerfGroupReadStatus.Ok);

        values.Select(v => v.Count).ShouldBe([10UL, 20UL, 30UL]);
        values.ShouldAllBe(v => v.Enabled == 1000 && v.Running == 800);
    }

    [Fact]
    public void Parse_BufferShorterThanTheLayout_IsTruncated()
    {
        byte[] data = Group(1, 1, (1, 5), (2, 6));

        PerfEventGroupReader.Parse(data.AsSpan(0, data.Length - 1), [5, 6], new Picollo.Interop.PerfEventValue[2]).ShouldBe(PerfGroupReadStatus.Truncated);
        PerfEventGroupReader.Parse(data.AsSpan(0, 16), [5, 6], new Picollo.Interop.PerfEventValue[2]).ShouldBe(PerfGroupReadStatus.Truncated);
    }

    [Fact]
    public void Parse_AnotherNumberOfEvents_IsACountMismatch()
    {
        PerfEventGroupReader.Parse(Group(1, 1, (1, 5)), [5, 6], new Picollo.Interop.PerfEventValue[2]).ShouldBe(PerfGroupReadStatus.CountMismatch);
    }

    [Fact]
    public void Parse_UnknownOrDuplicateId_IsRejected()
    {
        PerfEventGroupReader.Parse(Group(1, 1, (1, 5), (2, 9)), [5, 6], new Picollo.Interop.PerfEventValue[2]).ShouldBe(PerfGroupReadStatus.UnknownId);
        PerfEventGroupReader.Parse(Group(1, 1, (1, 5), (2, 5)), [5, 6], new Picollo.Interop.PerfEventValue[2]).ShouldBe(PerfGroupReadStatus.DuplicateId);
    }

    [Fact]
    public void Read_InterruptedBySignals_RetriesUntilData()
    {
        var kernel = new FakePerfKernel { TimeEnabled = 10, TimeRunning = 10 };
        int fd = kernel.Open(default, 0, -1, -1, 0);
        kernel.Opened[0].Value = 42;
        kernel.ScriptRead(-4, -4, -4);
        var values = new Picollo.Interop.PerfEventValue[1];

        PerfEventGroupReader.Read(kernel, fd, new byte[40], [kernel.Opened[0].Id], values, out int errno).ShouldBe(PerfGroupReadStatus.Ok);

        errno.ShouldBe(0);
        values[0].Count.ShouldBe(42UL);
        kernel.ReadCalls.ShouldBe(4);
    }

    [Fact]
    public void Read_EndlessSignals_GiveUpWithEintr()
    {
        var kernel = new FakePerfKernel();
        int fd = kernel.Open(default, 0, -1, -1, 0);
        kernel.ScriptRead(Enumerable.Repeat(-4, PerfEventGroupReader.MaxInterruptedRetries).ToArray());

        PerfEventGroupReader.Read(kernel, fd, new byte[40], [kernel.Opened[0].Id], new Picollo.Interop.PerfEventValue[1], out int errno).ShouldBe(PerfGroupReadStatus.Failed);

        errno.ShouldBe(4);
    }

    [Fact]
    public void Read_ZeroBytes_IsEndOfFileNotZeros()
    {
        var kernel = new FakePerfKernel();
        int fd = kernel.Open(default, 0, -1, -1, 0);
        kernel.ScriptRead(0);
        var values = new Picollo.Interop.PerfEventValue[] { new(7, 7, 7) };

        PerfEventGroupReader.Read(kernel, fd, new byte[40], [kernel.Opened[0].Id], values, out _).ShouldBe(PerfGroupReadStatus.EndOfFile);

        values[0].Count.ShouldBe(7UL, "the previous value is left alone");
    }

    [Fact]
    public void Read_BufferTooShortForTheGroup_FailsWithEnospc()
    {
        var kernel = new FakePerfKernel();
        int leader = kernel.Open(default, 0, -1, -1, 0);
        kernel.Open(default, 0, -1, leader, 0);

        PerfEventGroupReader.Read(kernel, leader, new byte[40], [kernel.Opened[0].Id], new Picollo.Interop.PerfEventValue[1], out int errno).ShouldBe(PerfGroupReadStatus.Failed);

        errno.ShouldBe(28);
    }

    [Theory]
    [InlineData(1000UL, 1000UL, 1000UL, 1000UL)]
    [InlineData(1000UL, 2000UL, 1000UL, 2000UL)]
    [InlineData(3UL, 10UL, 3UL, 10UL)]
    [InlineData(ulong.MaxValue / 2, 4_000_000_000UL, 1_000_000_000UL, ulong.MaxValue)]
    public void TryScale_Multiplexed_ExtrapolatesCountTimesEnabledOverRunning(ulong count, ulong enabled, ulong running, ulong expected)
    {
        PerfEventCounter.TryScale(count, enabled, running, out ulong scaled).ShouldBeTrue();

        scaled.ShouldBe(expected);
    }

    [Fact]
    public void TryScale_RunningZero_IsNotCountedAndNeverDivides()
    {
        PerfEventCounter.TryScale(5, 100, 0, out ulong scaled).ShouldBeFalse();

        scaled.ShouldBe(0UL);
    }
}
