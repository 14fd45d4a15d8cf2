using System.Globalization;
using Picollo.Counters;

namespace Picollo.PerfEvents;

/// <summary>
/// The parser of <c>pmu/term=value,…/</c> event names: each term is a format field of the PMU (placed into
/// config/config1/config2 as its sysfs format file says), a raw <c>config*</c> word, <c>name=</c>, or one of the PMU's
/// sysfs events (whose own terms apply at that point). Errors name the term, its position and where to look.
/// </summary>
/// <param name="sysfs">The sysfs tree the PMUs come from, quoted in messages.</param>
/// <param name="pmus">The PMUs names resolve against.</param>
internal sealed class PerfEventTermParser(PerfSysfs sysfs, IReadOnlyList<PerfPmu> pmus)
{
    /// <summary>Resolves <c>pmu/term=value,…/</c>: the PMU by name, then each term in order (later terms win).</summary>
    /// <exception cref="PerfEventNameException">The PMU is unknown, or a term is malformed, unknown or out of range.</exception>
    public List<PerfEventSpec> Resolve(string text)
    {
        int slash = text.IndexOf('/', StringComparison.Ordinal);
        string pmuName = text[..slash];
        if (pmuName.Length == 0)
            throw Malformed(text, 0, "the PMU name before the first '/' is missing (write 'pmu/terms/', e.g. 'cpu/event=0x3c/')");
        int close = text.IndexOf('/', slash + 1);
        if (close < 0)
            throw Malformed(text, text.Length, "the closing '/' is missing (write 'pmu/terms/', e.g. 'cpu/event=0x3c/')");
        if (close != text.Length - 1)
            throw Malformed(text, close + 1, PerfEventNameMessages.TextAfterClosingSlash(text[(close + 1)..]));
        if (!PerfPmu.TryFind(pmus, pmuName, out PerfPmu? pmu))
        {
            List<string> closest = PerfEventSuggestions.Closest(pmuName, pmus.Select(static p => p.Name));
            throw new PerfEventNameException(
                PerfEventNameMessages.UnknownPmu(pmuName, text, pmus.Select(static p => p.Name), sysfs.Root),
                text,
                closest,
                0);
        }

        string body = text[(slash + 1)..close];
        if (body.Length == 0)
        {
            throw Malformed(
                text,
                slash + 1,
                "no term between the slashes (write e.g. 'event=0x3c,umask=0x00' or an event name from " + EventsFolder(pmu) + ")");
        }

        // A lone generic name inside a core PMU (cpu_core/cycles/) is the generic event bound to that PMU.
        if (pmu.IsCpu && !body.Contains(',', StringComparison.Ordinal) && !pmu.TryGetEvent(body, out _)
            && PerfGenericEventTable.TryGet(body, out PerfEventSpec? generic)
            && generic.Type is (uint)PerfEventType.Hardware or (uint)PerfEventType.HardwareCache)
        {
            return [PerfPmu.IsHybridCorePmuName(pmu.Name)
                ? PerfEventCatalog.ForCorePmu(generic, pmu)
                : generic with { Name = pmu.Name + "/" + generic.Name + "/", Pmu = pmu.Name }];
        }

        var builder = new TermBuilder(pmu);
        Apply(builder, text, body, slash + 1, fromAlias: null);
        ThrowIfParameterMissing(builder, text);
        string specName = builder.CustomName ?? pmu.Name + "/" + body + "/";
        return [builder.ToSpec(specName)];
    }

    /// <summary>
    /// Resolves a sysfs event of <paramref name="pmu"/> named without its PMU (<c>cycles-ct</c>): its terms, as if written
    /// <c>pmu/alias/</c>.
    /// </summary>
    /// <exception cref="PerfEventNameException">
    /// The sysfs event needs a parameter (<c>field=?</c>), or one of its terms does not apply.
    /// </exception>
    public PerfEventSpec ResolveAlias(PerfPmu pmu, PerfPmuEvent alias, string text)
    {
        var builder = new TermBuilder(pmu);
        ApplyAlias(builder, text, alias, 0);
        ThrowIfParameterMissing(builder, text);
        return builder.ToSpec(pmu.Name + "/" + alias.Name + "/");
    }

    private void ApplyAlias(TermBuilder builder, string text, PerfPmuEvent alias, int position)
    {
        Apply(builder, text, alias.Terms, position, alias);
        builder.Scale = alias.Scale;
        builder.Unit = alias.Unit ?? builder.Unit;
    }

    private void Apply(TermBuilder builder, string text, string terms, int offset, PerfPmuEvent? fromAlias)
    {
        int start = 0;
        while (start <= terms.Length)
        {
            int comma = terms.IndexOf(',', start);
            int end = comma < 0 ? terms.Length : comma;
            // Positions in an alias's own terms point at the alias in the caller's text: that is what the user wrote.
            int position = fromAlias is null ? offset + start : offset;
            ApplyTerm(builder, text, terms[start..end].Trim(), position, fromAlias);
            if (comma < 0)
                break;
            start = comma + 1;
        }
    }

    private void ApplyTerm(TermBuilder builder, string text, string term, int position, PerfPmuEvent? fromAlias)
    {
        PerfPmu pmu = builder.Pmu;
        string where = fromAlias is null ? "" : $" (in sysfs event '{fromAlias.Name}': {EventsFolder(pmu)}{fromAlias.Name})";
        if (term.Length == 0)
            throw Malformed(text, position, "an empty term (two commas in a row or a trailing comma)" + where);

        int equals = term.IndexOf('=', StringComparison.Ordinal);
        string key = (equals < 0 ? term : term[..equals]).Trim();
        string? valueText = equals < 0 ? null : term[(equals + 1)..].Trim();
        if (key.Length == 0)
            throw Malformed(text, position, $"the term '{term}' has no name before '='" + where);

        if (string.Equals(key, "name", StringComparison.OrdinalIgnoreCase))
        {
            if (string.IsNullOrEmpty(valueText))
                throw Malformed(text, position, "'name=' needs a value" + where);
            builder.CustomName = valueText;
            return;
        }

        int word = key.ToLowerInvariant() switch
        {
            "config" => 0,
            "config1" => 1,
            "config2" => 2,
            _ => -1,
        };
        if (word >= 0)
        {
            builder.Words[word] = ParseValue(text, position, key, valueText, where);
            return;
        }

        if (pmu.Formats.TryGetValue(key, out PerfFormatField? field))
        {
            ApplyField(builder, text, position, key, field, valueText, fromAlias, where);
            return;
        }

        if (fromAlias is null && pmu.TryGetEvent(key, out PerfPmuEvent? alias))
        {
            if (valueText is not null)
                throw Malformed(text, position, $"'{key}' is a sysfs event of {pmu.Name}, it takes no value");
            ApplyAlias(builder, text, alias, position);
            return;
        }

        List<string> closest = PerfEventSuggestions.Closest(
            key, pmu.Formats.Keys.Concat(pmu.EventNames).Concat(["config", "config1", "config2", "name"]));
        string formats = PerfEventSuggestions.ListOrNone(pmu.Formats.Keys.Order(StringComparer.Ordinal));
        throw new PerfEventNameException(
            PerfEventNameMessages.UnknownTerm(key, position, text, where, pmu.Name, closest, formats, EventsFolder(pmu)),
            text,
            closest,
            position);
    }

    // A format field's term: its value placed in its config word's bits, or, in an alias, a parameter left for the user.
    private void ApplyField(
        TermBuilder builder,
        string text,
        int position,
        string key,
        PerfFormatField field,
        string? valueText,
        PerfPmuEvent? fromAlias,
        string where)
    {
        // An alias's 'field=?' is a parameter the user must supply in a later term (perf's hv_24x7 'domain=?').
        if (fromAlias is not null && valueText == "?")
        {
            builder.MissingParameters[field.Name] = (position, fromAlias.Name);
            return;
        }

        builder.MissingParameters.Remove(field.Name);
        // A flag such as 'inv', 'edge' or 'any' written alone means 1, as in perf.
        ulong value = valueText is null ? 1 : ParseValue(text, position, key, valueText, where);
        if (!field.Fits(value))
        {
            string problem = string.Create(
                CultureInfo.InvariantCulture,
                $"the value 0x{value:x} of '{field.Name}' does not fit in its {field.Width} bits "
                + $"({sysfs.Root}/{builder.Pmu.Name}/format/{field.Name})");
            throw Malformed(text, position, problem + where);
        }

        // Later terms override earlier ones (user terms override an alias's), so clear the field first.
        builder.Words[field.Word] = (builder.Words[field.Word] & ~field.Mask) | field.Place(value);
    }

    private void ThrowIfParameterMissing(TermBuilder builder, string text)
    {
        if (builder.MissingParameters.Count > 0)
        {
            (string field, (int position, string alias)) = builder.MissingParameters.First();
            string problem = PerfEventNameMessages.ParameterMissing(field, alias, builder.Pmu.Name, EventsFolder(builder.Pmu));
            throw Malformed(text, position, problem);
        }
    }

    private static ulong ParseValue(string text, int position, string key, string? valueText, string where)
    {
        if (string.IsNullOrEmpty(valueText))
            throw Malformed(text, position, $"'{key}=' is missing its value" + where);
        if (valueText == "?")
            throw Malformed(text, position, $"'{key}=?' is only meaningful in a sysfs event: write '{key}=<value>'" + where);
        bool parsed = valueText.StartsWith("0x", StringComparison.OrdinalIgnoreCase)
            ? ulong.TryParse(valueText.AsSpan(2), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out ulong value)
            : ulong.TryParse(valueText, NumberStyles.None, CultureInfo.InvariantCulture, out value);
        if (!parsed)
            throw Malformed(text, position, $"'{valueText}' is not a number for '{key}' (write decimal or 0x-prefixed hex)" + where);
        return value;
    }

    private static PerfEventNameException Malformed(string text, int position, string problem) =>
        new(PerfEventNameMessages.Malformed(text, position, problem), text, [], position);

    private string EventsFolder(PerfPmu pmu) => sysfs.Root + "/" + pmu.Name + "/events/";

    /// <summary>The config words, name, scale and unit accumulated while applying the terms of one PMU event.</summary>
    private sealed class TermBuilder(PerfPmu pmu)
    {
        public PerfPmu Pmu { get; } = pmu;

        public ulong[] Words { get; } = new ulong[3];

        public string? CustomName { get; set; }

        public double Scale { get; set; } = 1.0;

        public string Unit { get; set; } = "events";

        public Dictionary<string, (int Position, string Alias)> MissingParameters { get; } = new(StringComparer.OrdinalIgnoreCase);

        public PerfEventSpec ToSpec(string name) =>
            new(
                name,
                Pmu.Type,
                Words[0],
                Words[1],
                Words[2],
                Pmu.Type == (uint)PerfEventType.Software ? CounterKind.Software : CounterKind.Raw,
                Unit,
                Scale,
                Pmu.Name);
    }
}
