using System.Globalization;

namespace TextKit.ObservedService;

/// <summary>The command line: how long, how many workers, spans on or off, where the metrics go, extra counters, JSON output.</summary>
/// <param name="Seconds">How long the workers index (default 5).</param>
/// <param name="Workers">Worker threads (default 2).</param>
/// <param name="Spans"><c>--spans on|off</c>; <see langword="null"/> when not given (then <c>PICOLLO_SPANS</c> decides, on by default) or alternating.</param>
/// <param name="Export"><c>console</c> (the OpenTelemetry console exporter) or <c>none</c>.</param>
/// <param name="Counters">perf counters added to every span beside the defaults (<c>tsc</c>, <c>allocated-bytes</c>).</param>
/// <param name="Json">Print one JSON line instead of the report.</param>
/// <param name="Alternate"><c>--spans alternate</c>: spans on and off in alternating phases of one process, to measure their cost.</param>
internal sealed record ServiceOptions(double Seconds, int Workers, bool? Spans, string Export, string[] Counters, bool Json, bool Alternate = false)
{
    /// <summary>The one-line usage, appended to errors about unknown arguments.</summary>
    public const string Usage =
        "usage: TextKit.ObservedService [--seconds S] [--workers N] [--spans on|off|alternate] [--export console|none] [--counters a,b,...] [--json]";

    /// <summary>Parses <paramref name="args"/>; null with <paramref name="error"/> (one line) naming the argument and what it accepts.</summary>
    public static ServiceOptions? Parse(string[] args, out string? error)
    {
        var options = new ServiceOptions(5, 2, null, "console", [], false);
        for (int i = 0; i < args.Length; i++)
        {
            string name = args[i];
            if (name == "--json")
            {
                options = options with { Json = true };
                continue;
            }

            if (name is not ("--seconds" or "--workers" or "--spans" or "--export" or "--counters"))
            {
                error = $"Unknown argument '{name}'. {Usage}";
                return null;
            }

            if (i + 1 >= args.Length)
            {
                error = $"{name} needs a value. {Usage}";
                return null;
            }

            string value = args[++i];
            switch (name)
            {
                case "--seconds" when double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out double seconds) && seconds is > 0 and <= 3600:
                    options = options with { Seconds = seconds };
                    break;
                case "--seconds":
                    error = $"--seconds '{value}': expected a number of seconds above 0 and at most 3600, e.g. --seconds 5.";
                    return null;
                case "--workers" when int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out int workers) && workers is >= 1 and <= 256:
                    options = options with { Workers = workers };
                    break;
                case "--workers":
                    error = $"--workers '{value}': expected a whole number from 1 to 256, e.g. --workers {Environment.ProcessorCount}.";
                    return null;
                case "--spans" when value is "on" or "off":
                    options = options with { Spans = value == "on", Alternate = false };
                    break;
                case "--spans" when value is "alternate":
                    options = options with { Spans = null, Alternate = true };
                    break;
                case "--spans":
                    error = $"--spans '{value}': expected on, off or alternate.";
                    return null;
                case "--export" when value is "console" or "none":
                    options = options with { Export = value };
                    break;
                case "--export":
                    error = $"--export '{value}': expected console (the OpenTelemetry console exporter) or none.";
                    return null;
                default: // --counters; the names are checked when the spans are created.
                    string[] counters = value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
                    if (counters.Length == 0)
                    {
                        error = $"--counters '{value}': expected comma-separated counter names, e.g. --counters cycles,instructions.";
                        return null;
                    }

                    options = options with { Counters = counters };
                    break;
            }
        }

        error = null;
        return options;
    }
}
