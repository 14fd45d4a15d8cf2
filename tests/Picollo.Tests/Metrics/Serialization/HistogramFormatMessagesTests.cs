using System.Text;
using Picollo.Metrics.Serialization;
using Picollo.Tests.Support;
using Xunit;

namespace Picollo.Tests.Metrics.Serialization;

public sealed class HistogramFormatMessagesTests
{
    [Fact]
    public void EveryMessage_MatchesTheGoldenFile()
    {
        var text = new StringBuilder();
        Add(text, "InvalidJson", HistogramFormatMessages.InvalidJson(
            "$.storage", "\"uint16\" is not a storage width: use \"uint32\" or \"uint64\"."));
        Add(text, "NullDocument", HistogramFormatMessages.InvalidJson("$", HistogramFormatMessages.NullDocument()));
        Add(text, "RelativeErrorNotALayout", HistogramFormatMessages.InvalidJson(
            "$.relativeError", HistogramFormatMessages.RelativeErrorNotALayout(0.001, 0.0009765625)));
        Add(text, "BucketKeyNotAStart", HistogramFormatMessages.InvalidJson(
            "$.buckets['19970']", HistogramFormatMessages.BucketKeyNotAStart(19970, 0.0009765625, 512, 19968, 19999)));
        Add(text, "BucketOutsideRange", HistogramFormatMessages.InvalidJson(
            "$.buckets['5000']", HistogramFormatMessages.BucketOutsideRange(5000, 1000, 2000, 1000, 2000)));
        Add(text, "BucketsNotAnObject", HistogramFormatMessages.BucketsNotAnObject());
        Add(text, "BucketKeyNotANumber", HistogramFormatMessages.BucketKeyNotANumber("019968"));
        Add(text, "InvalidV2", HistogramFormatMessages.InvalidV2("the text is not base64 (The input is not a valid Base-64 string)."));
        Add(text, "TruncatedEnvelope", HistogramFormatMessages.InvalidV2(HistogramFormatMessages.TruncatedEnvelope(5, 8)));
        Add(text, "CompressedLengthMismatch", HistogramFormatMessages.InvalidV2(HistogramFormatMessages.CompressedLengthMismatch(412, 96)));
        Add(text, "TruncatedHeader", HistogramFormatMessages.InvalidV2(HistogramFormatMessages.TruncatedHeader(17, 40)));
        Add(text, "NegativePayloadLength", HistogramFormatMessages.InvalidV2(HistogramFormatMessages.NegativePayloadLength(-40)));
        Add(text, "DigitsOutOfRange", HistogramFormatMessages.InvalidV2(HistogramFormatMessages.DigitsOutOfRange(7, 5)));
        Add(text, "LowestBelowOne", HistogramFormatMessages.InvalidV2(HistogramFormatMessages.LowestBelowOne(0)));
        Add(text, "HighestBelowTwiceLowest", HistogramFormatMessages.InvalidV2(HistogramFormatMessages.HighestBelowTwiceLowest(3, 2)));
        Add(text, "TruncatedPayload", HistogramFormatMessages.InvalidV2(HistogramFormatMessages.TruncatedPayload(1024, 512)));
        Add(text, "NotAV2Encoding", HistogramFormatMessages.InvalidV2(HistogramFormatMessages.NotAV2Encoding(0x1c849315, 0x1c849313)));
        Add(text, "ShiftedV2Histogram", HistogramFormatMessages.InvalidV2(HistogramFormatMessages.ShiftedV2Histogram(3)));
        Add(text, "CountsBeyondValueRange", HistogramFormatMessages.InvalidV2(HistogramFormatMessages.CountsBeyondValueRange(61440, 17)));
        Add(text, "ValuesAboveLongMax", HistogramFormatMessages.ValuesAboveLongMax(12_345UL));
        Add(text, "BucketCountAboveLongMax", HistogramFormatMessages.BucketCountAboveLongMax());

        Approvals.Verify(text.ToString(), "HistogramFormatMessages");
    }

    private static void Add(StringBuilder text, string name, string message) =>
        text.Append("## ").Append(name).Append("\n\n").Append(message).Append("\n\n");
}
