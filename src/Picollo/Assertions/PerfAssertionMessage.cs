using System.Globalization;
using System.Text;
using Picollo.Measurement;
using Picollo.Reporting;

namespace Picollo.Assertions;

/// <summary>Formats failures the way Shouldly does: the expression, the expectation, the measured value, then the evidence.</summary>
internal static class PerfAssertionMessage
{
    /// <summary>A number as the messages print it: invariant culture, thousands separators, up to 3 decimals.</summary>
    public static string Number(double value) => value.ToString("#,0.###", CultureInfo.InvariantCulture);

    /// <summary>The call as written: <c>{expression}.{method}({arguments})</c>.</summary>
    public static string Call(string? expression, string method, string arguments) => $"{expression ?? "counter"}.{method}({arguments})";

    /// <summary>
    /// <c>{expression}</c> / <c>    should {expectation}</c> / <c>{expected}</c> / <c>    but was</c> / <c>{actual}</c>, then the
    /// tables of <paramref name="counters"/>.
    /// </summary>
    public static string Format(string? expression, string expectation, string expected, string actual, params CounterResult[] counters)
    {
        var text = new StringBuilder();
        text.Append(expression ?? "counter").Append('\n')
            .Append("    should ").Append(expectation).Append('\n')
            .Append(expected).Append('\n')
            .Append("    but was").Append('\n')
            .Append(actual).Append('\n');
        foreach (CounterResult counter in counters)
        {
            text.Append('\n')
                .Append(CultureInfo.InvariantCulture, $"{counter.SampleCount:N0} samples × {counter.OperationsPerSample:N0} operations")
                .Append(PerfReport.OverheadText(counter))
                .Append('\n').Append('\n')
                .Append(counter.ToMarkdown());
        }

        return text.ToString();
    }
}
