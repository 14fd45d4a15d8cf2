using System.Globalization;

namespace TextKit.ObservedService;

/// <summary>The command line: how long, how many workers, spans on or off, where the metrics go, extra counters.</summary>
internal sealed record ServiceOptions(double Seconds, int Workers, bool Spans, string Export, string[] Counters, bool Json)
{
    public const string Usage =
        "usage: TextKit.ObservedService [--seconds S] [--workers N] [--spans on|off] [--export console|none] [--counters a,b,...] [--json]";

    /// <summary>Parses <paramref name="args"/>; null with <paramref name="error"/> naming the argument and what it accepts.</summary>
    public static ServiceOptions? Parse(string[] args, out string? error)
    {
        var options = new ServiceOptions(5, 2, true, "console", [], false);
        for (int i = 0; i < args.Length; i++)
        {
            string name = args[i];
            if (name == "--json")
            {
                options = options with { Json = true };
                continue;
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
                    error = $"--seconds '{value}': expected a number of seconds from 0 to 3600, e.g. --seconds 5.";
                    return null;
                case "--workers" when int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out int workers) && workers is >= 1 and <= 256:
                    options = options with { Workers = workers };
                    break;
                case "--workers":
                    error = $"--workers '{value}': expected a whole number from 1 to 256, e.g. --workers {Environment.ProcessorCount}.";
                    return null;
                case "--spans" when value is "on" or "off":
                    options = options with { Spans = value == "on" };
                    break;
                case "--spans":
                    error = $"--spans '{value}': expected on or off.";
                    return null;
                case "--export" when value is "console" or "none":
                    options = options with { Export = value };
                    break;
                case "--export":
                    error = $"--export '{value}': expected console (the OpenTelemetry console exporter) or none.";
                    return null;
                case "--counters":
                    options = options with { Counters = value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries) };
                    break;
                default:
                    error = $"Unknown argument '{name}'. {Usage}";
                    return null;
            }
        }

        error = null;
        return options;
    }
}
