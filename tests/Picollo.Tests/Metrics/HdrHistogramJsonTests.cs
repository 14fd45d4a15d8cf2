using System.Text;
using Picollo.Metrics;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Metrics;

// The HdrHistogram.NET package declares a namespace HdrHistogram, which global lookup finds before
// the type imported by a top-level using.
using HdrHistogram = Picollo.Metrics.HdrHistogram;

public sealed class HdrHistogramJsonTests
{
    // 0.01 gives BlockSize 64 (effective error 0.0078125): buckets [0, 128) have width 1, [512, 1024) width 8.
    private const string GoldenJson = """
        {
          "relativeError": 0.0078125,
          "minTrackableValue": 0,
          "maxTrackableValue": 1000000,
          "storage": "uint32",
          "overflowCount": 1,
          "buckets": {
            "3": 2,
            "100": 1,
            "1000": 4294967295
          }
        }
        """;

    public static TheoryData<double, bool, ulong, ulong> Layouts => new()
    {
        { 0.1, true, 0, ulong.MaxValue },
        { 0.1, false, 0, ulong.MaxValue },
        { 0.01, false, 0, 1_000_000_000 },
        { 0.001, true, 0, ulong.MaxValue },
        { 0.0005, true, 1_000, 10_000_000 },
        { 0.0001, false, 0, 1UL << 40 },
        { 0.000_01, true, 1_000_000, 100_000_000 },
        { 0.000_001, true, 1UL << 30, 1UL << 31 },
        { 0.000_001, false, (1UL << 63) - 1_000, (1UL << 63) + (1UL << 40) },
    };

    [Fact]
    public void SmallHistogram_WritesGoldenJson()
    {
        var histogram = HdrHistogram.Factory.WithRelativeError(0.01).WithUInt32Storage().WithMaxTrackableValue(1_000_000).Create();
        histogram.Record(3);
        histogram.Record(3);
        histogram.Record(100);
        histogram.Record(1_001, uint.MaxValue);
        histogram.Record(2_000_000);

        histogram.ToJson().ShouldBe(GoldenJson);
    }

    [Fact]
    public void GoldenJson_ReadsBackIntoTheSameBuckets()
    {
        HdrHistogram histogram = HdrHistogram.FromJson(GoldenJson);

        histogram.RelativeError.ShouldBe(0.0078125);
        histogram.CounterSize.ShouldBe(4);
        histogram.MaxTrackableValue.ShouldBe(1_000_000UL);
        histogram.OverflowCount.ShouldBe(1UL);
        histogram.BucketsWithValues.Select(b => (b.Start, b.Step, b.Count)).ShouldBe([(3UL, 1UL, 2UL), (100UL, 1UL, 1UL), (1_000UL, 8UL, uint.MaxValue)]);
        histogram.ToJson().ShouldBe(GoldenJson);
    }

    [Fact]
    public void EmptyHistogram_WritesEmptyBucketsObject()
    {
        var histogram = HdrHistogram.Factory.Create();

        histogram.ToJson().ShouldBe("""
            {
              "relativeError": 0.0009765625,
              "minTrackableValue": 0,
              "maxTrackableValue": 18446744073709551615,
              "storage": "uint64",
              "overflowCount": 0,
              "buckets": {}
            }
            """);
        AssertIdentical(HdrHistogram.FromJson(histogram.ToJson()), histogram);
    }

    [Theory]
    [MemberData(nameof(Layouts))]
    public void RandomDistribution_RoundTripsExactly(double relativeError, bool wideCounters, ulong min, ulong max)
    {
        HdrHistogram histogram = Create(relativeError, wideCounters, min, max);
        var random = new Random(42);
        for (int i = 0; i < 20_000; i++)
            histogram.Record(RandomValues.LogUniform(random, min, max));

        // The edges of the range, the edges of the ulong range, and overflow on both sides when trimmed.
        histogram.Record(min, 3);
        histogram.Record(max, 5);
        histogram.Record(0, 7);
        histogram.Record(ulong.MaxValue, 11);
        histogram.Record(1UL << 63, 13);
        histogram.Record((1UL << 63) - 1, 17);
        histogram.Record(min + ((max - min) / 2), wideCounters ? ulong.MaxValue / 2 : uint.MaxValue / 2);

        string json = histogram.ToJson();
        HdrHistogram copy = HdrHistogram.FromJson(json);

        AssertIdentical(copy, histogram);
        copy.ToJson().ShouldBe(json);
    }

    [Fact]
    public void ExtremeValuesAndCounts_RoundTripExactly()
    {
        var histogram = HdrHistogram.Factory.WithRelativeError(0.1).Create();
        histogram.Record(0, ulong.MaxValue);
        histogram.Record(1);
        histogram.Record((1UL << 63) - 1, 2);
        histogram.Record(1UL << 63, 3);
        histogram.Record(ulong.MaxValue, ulong.MaxValue - 1);

        string json = histogram.ToJson();

        json.ShouldContain("\"0\": 18446744073709551615,");
        json.ShouldContain("\"17293822569102704640\": 18446744073709551614\n");
        AssertIdentical(HdrHistogram.FromJson(json), histogram);
    }

    [Fact]
    public void OverflowCount_RoundTripsEvenWhenEveryValueIsTrackable()
    {
        HdrHistogram histogram = HdrHistogram.FromJson(GoldenJson.Replace("\"overflowCount\": 1", "\"overflowCount\": 18446744073709551615", StringComparison.Ordinal)
            .Replace("\"uint32\"", "\"uint64\"", StringComparison.Ordinal));

        histogram.OverflowCount.ShouldBe(ulong.MaxValue);
        HdrHistogram.FromJson(histogram.ToJson()).OverflowCount.ShouldBe(ulong.MaxValue);
    }

    [Fact]
    public void Utf8Json_RoundTripsLikeTheString()
    {
        HdrHistogram histogram = HdrHistogram.FromJson(GoldenJson);

        byte[] utf8 = histogram.ToUtf8Json();

        Encoding.UTF8.GetString(utf8).ShouldBe(GoldenJson);
        AssertIdentical(HdrHistogram.FromJson(utf8), histogram);
    }

    [Fact]
    public void Utf8JsonWithByteOrderMark_IsRead()
    {
        byte[] withBom = [.. Encoding.UTF8.GetPreamble(), .. Encoding.UTF8.GetBytes(GoldenJson)];

        AssertIdentical(HdrHistogram.FromJson(withBom), HdrHistogram.FromJson(GoldenJson));
    }

    [Fact]
    public void BucketsInAnyOrder_AreAccepted()
    {
        string shuffled = GoldenJson.Replace("\"3\": 2,\n    \"100\": 1,", "\"100\": 1,\n    \"3\": 2,", StringComparison.Ordinal);

        AssertIdentical(HdrHistogram.FromJson(shuffled), HdrHistogram.FromJson(GoldenJson));
    }

    [Theory]
    [InlineData("{\"relativeError\": 0.0078125,", "$", "(line 1, after byte 27)", "reached end of data", "Fix the JSON, or write it again with HdrHistogram.ToJson().")]
    [InlineData("", "$", "(line 1, after byte 0)", "does not contain any JSON tokens")]
    [InlineData("[1, 2]", "$", "(line 1, after byte 1)", "could not be converted to an object with the fields relativeError, minTrackableValue, maxTrackableValue, storage, overflowCount and buckets")]
    [InlineData("null", "$", null, "the document is null")]
    [InlineData("{ \"relativeError\": \"0.0078125\" }", "$.relativeError", "(line 1, after byte 30)", "could not be converted to a number such as 0.0009765625")]
    [InlineData("{ \"minTrackableValue\": -1 }", "$.minTrackableValue", "(line 1, after byte 25)", "could not be converted to a whole number in [0, 18446744073709551615]")]
    [InlineData("{ \"overflowCount\": 1.5 }", "$.overflowCount", "(line 1, after byte 22)", "could not be converted to a whole number in [0, 18446744073709551615]")]
    [InlineData("{ \"storage\": 64 }", "$.storage", "(line 1, after byte 15)", "could not be converted to a string, \"uint32\" or \"uint64\"")]
    [InlineData("{ \"overflowCount\": 1, \"overflowCount\": 2 }", "$.overflowCount", "(line 1, after byte 40)", "Duplicate property 'overflowCount' encountered in the histogram object")]
    public void MalformedJson_ThrowsFormatExceptionWithPosition(string json, string path, string? position, params string[] fragments)
    {
        HdrHistogramFormatException ex = Should.Throw<HdrHistogramFormatException>(() => HdrHistogram.FromJson(json));

        ex.ShouldBeAssignableTo<FormatException>();
        ex.Path.ShouldBe(path);
        ex.Message.ShouldContain($"at {path}");
        if (position is not null)
        {
            ex.Message.ShouldContain(position);
            ex.LineNumber.ShouldBe(0);
        }

        foreach (string fragment in fragments)
            ex.Message.ShouldContain(fragment);
        ex.Message.ShouldNotContain("LineNumber:");
        ex.Message.ShouldNotContain("System.");
        ex.Message.ShouldNotContain("HdrHistogramJsonModel");
    }

    [Theory]
    [InlineData("\"storage\": \"uint32\",\n", "", "$", "the required field 'storage' is missing", "\"storage\": \"uint64\"")]
    [InlineData("\"buckets\": {", "\"buckets\": null, \"x\": {", "$", "the required field 'buckets' is missing or null")]
    [InlineData("0.0078125", "0.01", "$.relativeError", "0.01 is not the relative error of a bucket layout", "0.0078125", "(the nearest is 0.0078125)")]
    [InlineData("\"minTrackableValue\": 0", "\"minTrackableValue\": 1000001", "$.minTrackableValue", "minTrackableValue (1000001) is greater than maxTrackableValue (1000000)", "swap them")]
    [InlineData("\"uint32\"", "\"int64\"", "$.storage", "\"int64\" is not a storage width", "use \"uint32\" or \"uint64\"")]
    [InlineData("\"1000\"", "\"1001\"", "$.buckets['1001']", "1001 is not the start of a bucket with relative error 0.0078125 (block size 64)", "[1000, 1007]", "Key each count by its bucket's start value")]
    [InlineData("\"1000\"", "\"2097152\"", "$.buckets['2097152']", "the bucket 2097152 is outside the trackable range [0, 1000000]", "from 0 to 999424", "move the count to overflowCount")]
    [InlineData("\"100\": 1", "\"100\": 4294967296", "$.buckets['100']", "the count 4294967296 does not fit 32-bit storage", "\"storage\": \"uint64\"")]
    [InlineData("\"overflowCount\": 1", "\"overflowCount\": 4294967296", "$.overflowCount", "the count 4294967296 does not fit 32-bit storage")]
    public void InvalidHistogram_ThrowsFormatExceptionNamingTheFieldAndFix(string find, string replacement, string path, params string[] fragments)
    {
        string json = GoldenJson.Replace(find, replacement, StringComparison.Ordinal);
        json.ShouldNotBe(GoldenJson);

        HdrHistogramFormatException ex = Should.Throw<HdrHistogramFormatException>(() => HdrHistogram.FromJson(json));

        ex.Path.ShouldBe(path);
        ex.Message.ShouldStartWith($"Invalid histogram JSON at {path}: ");
        foreach (string fragment in fragments)
            ex.Message.ShouldContain(fragment);
    }

    [Fact]
    public void KeyBelowMinTrackableValue_IsOutsideTheRange()
    {
        string json = GoldenJson.Replace("\"minTrackableValue\": 0", "\"minTrackableValue\": 50", StringComparison.Ordinal);

        HdrHistogramFormatException ex = Should.Throw<HdrHistogramFormatException>(() => HdrHistogram.FromJson(json));

        ex.Path.ShouldBe("$.buckets['3']");
        ex.Message.ShouldContain("the bucket 3 is outside the trackable range [50, 1000000], whose buckets start from 50 to 999424");
    }

    [Theory]
    [InlineData("\"3\"", "\"03\"", "The bucket key \"03\" is not a bucket start value", "without sign, spaces or leading zeros")]
    [InlineData("\"3\"", "\"-3\"", "The bucket key \"-3\" is not a bucket start value")]
    [InlineData("\"3\"", "\"18446744073709551616\"", "The bucket key \"18446744073709551616\" is not a bucket start value", "up to 18446744073709551615")]
    [InlineData("\"3\"", "\"abc\"", "The bucket key \"abc\" is not a bucket start value")]
    [InlineData("\"100\"", "\"3\"", "The bucket \"3\" appears twice", "add the counts into one entry")]
    [InlineData("\"3\": 2", "\"3\": -2", "The count of bucket \"3\" is not a whole number in [0, 18446744073709551615]")]
    [InlineData("\"3\": 2", "\"3\": 2.5", "The count of bucket \"3\" is not a whole number")]
    [InlineData("\"3\": 2", "\"3\": \"2\"", "The count of bucket \"3\" is not a whole number")]
    [InlineData("\"3\": 2", "\"3\": 18446744073709551616", "The count of bucket \"3\" is not a whole number")]
    public void BadBucketEntry_ThrowsFormatExceptionWithLine(string find, string replacement, params string[] fragments)
    {
        string json = GoldenJson.Replace(find, replacement, StringComparison.Ordinal);

        HdrHistogramFormatException ex = Should.Throw<HdrHistogramFormatException>(() => HdrHistogram.FromJson(json));

        ex.Path.ShouldBe("$.buckets");
        ex.LineNumber.ShouldNotBeNull().ShouldBeInRange(7, 9);
        ex.Message.ShouldStartWith($"Invalid histogram JSON at $.buckets (line {ex.LineNumber + 1}, after byte ");
        foreach (string fragment in fragments)
            ex.Message.ShouldContain(fragment);
    }

    [Fact]
    public void BucketsNotAnObject_SaysWhatTheyShouldBe()
    {
        string json = GoldenJson[..GoldenJson.IndexOf("{\n    \"3\"", StringComparison.Ordinal)] + "[3, 2]\n}";

        HdrHistogramFormatException ex = Should.Throw<HdrHistogramFormatException>(() => HdrHistogram.FromJson(json));

        ex.Path.ShouldBe("$.buckets");
        ex.Message.ShouldContain("(line 7, after byte 14)");
        ex.Message.ShouldContain("'buckets' must be an object that maps bucket start values to counts");
    }

    [Fact]
    public void NullString_ThrowsArgumentNullException() =>
        Should.Throw<ArgumentNullException>(() => HdrHistogram.FromJson((string)null!));

    private static HdrHistogram Create(double relativeError, bool wideCounters, ulong min, ulong max)
    {
        HdrHistogramBuilder builder = HdrHistogram.Factory.WithRelativeError(relativeError).WithMinTrackableValue(min).WithMaxTrackableValue(max);
        return (wideCounters ? builder.WithUInt64Storage() : builder.WithUInt32Storage()).Create();
    }

    private static ulong[] GetCounts(HdrHistogram histogram)
    {
        ulong[] counts = new ulong[histogram.BucketCount];
        histogram.CopyCounts(counts);
        return counts;
    }

    private static void AssertIdentical(HdrHistogram actual, HdrHistogram expected)
    {
        actual.RelativeError.ShouldBe(expected.RelativeError);
        actual.Layout.ShouldBe(expected.Layout);
        actual.MinTrackableValue.ShouldBe(expected.MinTrackableValue);
        actual.MaxTrackableValue.ShouldBe(expected.MaxTrackableValue);
        actual.CounterSize.ShouldBe(expected.CounterSize);
        actual.FirstLogicalIndex.ShouldBe(expected.FirstLogicalIndex);
        actual.BucketCount.ShouldBe(expected.BucketCount);
        actual.OverflowCount.ShouldBe(expected.OverflowCount);
        GetCounts(actual).AsSpan().SequenceEqual(GetCounts(expected)).ShouldBeTrue("every bucket count must be identical");
    }
}
