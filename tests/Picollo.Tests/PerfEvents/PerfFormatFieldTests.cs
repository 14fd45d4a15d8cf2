using Picollo.PerfEvents;
using Shouldly;
using Xunit;

namespace Picollo.Tests.PerfEvents;

public sealed class PerfFormatFieldTests
{
    [Theory]
    [InlineData("config:0-7", 0, 8, 0xFFUL)]
    [InlineData("config:23", 0, 1, 0x80_0000UL)]
    [InlineData("config1:0-63", 1, 64, ulong.MaxValue)]
    [InlineData("config2:8-15", 2, 8, 0xFF00UL)]
    [InlineData("config:0-7,32-35", 0, 12, 0xF_0000_00FFUL)]
    public void FormatFile_ParsesWordWidthAndMask(string text, int word, int width, ulong mask)
    {
        PerfFormatField.TryParse("f", text, out PerfFormatField? field).ShouldBeTrue();

        field!.Word.ShouldBe(word);
        field.Width.ShouldBe(width);
        field.Mask.ShouldBe(mask);
    }

    [Theory]
    [InlineData("")]
    [InlineData("config")]
    [InlineData("config3:0-7")]
    [InlineData("config:7-0")]
    [InlineData("config:0-64")]
    [InlineData("config:")]
    public void UnknownLayout_IsRejected(string text) =>
        PerfFormatField.TryParse("f", text, out _).ShouldBeFalse();

    [Fact]
    public void SplitField_FillsItsRangesLowestFirst()
    {
        // AMD's 12-bit event select: bits 7:0 of the value go to config 7:0, bits 11:8 to config 35:32.
        PerfFormatField.TryParse("event", "config:32-35,0-7", out PerfFormatField? field).ShouldBeTrue();

        field!.Place(0x1c1).ShouldBe(0x1_0000_00c1UL);
        field.Fits(0xFFF).ShouldBeTrue();
        field.Fits(0x1000).ShouldBeFalse();
    }

    [Fact]
    public void FullWidthField_PlacesEveryBit()
    {
        PerfFormatField.TryParse("offcore_rsp", "config1:0-63", out PerfFormatField? field).ShouldBeTrue();

        field!.Place(ulong.MaxValue).ShouldBe(ulong.MaxValue);
        field.Fits(ulong.MaxValue).ShouldBeTrue();
    }
}
