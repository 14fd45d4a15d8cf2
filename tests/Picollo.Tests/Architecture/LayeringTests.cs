using System.Runtime.CompilerServices;
using System.Text.RegularExpressions;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Architecture;

/// <summary>
/// The folders of src/Picollo depend one way, along the data flow (docs/ARCHITECTURE.md, "Layers and data flow"): a file
/// may use its own folder and the folders of lower layers, never a higher one. The test reads the sources: every
/// <c>using Picollo.X</c> (plain, static or alias), every qualified <c>Picollo.X.</c> name and every <c>Interop.X</c> call.
/// Inside Measurement and Baselines the subfolders depend one way too (docs/ARCHITECTURE.md, "Measurement engine" and
/// "Baselines and verdicts").
/// </summary>
public sealed partial class LayeringTests
{
    // Lowest first. A folder may use the folders of lower layers. IO and Text are leaf utilities; Metrics is a leaf too
    // (the perf session records into histograms, so histograms sit below counters).
    private static readonly (string Folder, int Layer)[] s_layers =
    [
        ("IO", 0),
        ("Text", 0),
        ("Interop", 1),
        ("Metrics", 2),
        ("Counters", 3),
        ("PerfEvents", 4),
        ("Measurement", 5),
        ("Observation", 5),
        ("Baselines", 6),
        ("Simulation", 6),
        ("Reporting", 7),
        ("Assertions", 8),
        ("Testing", 9),
    ];

    // Measurement's subfolders, lowest first: a subfolder may use Measurement itself and the subfolders of lower ranks.
    // Measurement itself may use every subfolder (its public types start the engines and carry the conditions they saw).
    // Conditions are the machine's (references, load, pinning, JIT tiers, coverage) and Simulated holds the simulated
    // counters' results: both below the engine that reads them. Paired is Perf.Compare's engine, built from the engine's
    // stages; the engine's own side of a picollo ab pair (the Paired* types in Engine) is in Engine, as every measurement takes it.
    private static readonly (string Folder, int Rank)[] s_measurementFolders =
    [
        ("Conditions", 0),
        ("Simulated", 0),
        ("Engine", 1),
        ("Paired", 2),
    ];

    // Baselines' subfolders, lowest first, under the same rule; Baselines itself holds the public policy types, the policy's
    // numbers (JudgementPolicy) and the messages catalogue, which every subfolder may use. Records are the stored data
    // (entries, records, counters, machines), plain; Rules judge a record against an entry (the comparer, the time
    // allowance, the spread of levels); Storage reads and writes files (JSON, locks, received files, the speed memory) and
    // combines an older file's levels with the rules; Judging measures, decides and writes (docs/ARCHITECTURE.md,
    // "Baselines and verdicts").
    private static readonly (string Folder, int Rank)[] s_baselinesFolders =
    [
        ("Records", 0),
        ("Rules", 1),
        ("Storage", 2),
        ("Judging", 3),
    ];

    public static TheoryData<string> LayersWithSubfolders => new() { "Measurement", "Baselines" };

    [Fact]
    public void EveryFolder_HasALayer()
    {
        foreach (string folder in Directory.GetDirectories(SourceRoot()).Select(static d => Path.GetFileName(d)).Where(static f => f is not ("bin" or "obj")))
            s_layers.Any(l => l.Folder == folder).ShouldBeTrue($"src/Picollo/{folder} has no layer: add it to {nameof(LayeringTests)} and docs/ARCHITECTURE.md.");
    }

    [Fact]
    public void NoFile_UsesAHigherLayer()
    {
        var violations = new List<string>();
        foreach (Edge edge in Edges())
        {
            if (edge.To != edge.From && Layer(edge.To) >= Layer(edge.From))
                violations.Add($"{edge.File}:{edge.Line} ({edge.From}, layer {Layer(edge.From)}) uses {edge.To} (layer {Layer(edge.To)}): {edge.Text}");
        }

        violations.ShouldBeEmpty(
            "A folder uses a folder of its own layer or a higher one, against the data flow " +
            string.Join(" → ", s_layers.GroupBy(static l => l.Layer).Select(static g => string.Join("/", g.Select(static l => l.Folder)))) +
            ". Move the type to the lower folder or turn the dependency around (docs/ARCHITECTURE.md, \"Layers and data flow\").");
    }

    [Fact]
    public void Reader_SeesTheEdgesThatExist()
    {
        // The test is only as good as its reader: these edges are known to exist, one of each form.
        var edges = Edges().Select(static e => (e.From, e.To)).ToHashSet();

        edges.ShouldContain(("Measurement", "Counters"), "a using directive");
        edges.ShouldContain(("PerfEvents", "Interop"), "an Interop.X call");
        edges.ShouldContain(("Assertions", "Reporting"), "a using directive");
    }

    [Theory]
    [MemberData(nameof(LayersWithSubfolders))]
    public void EverySubfolder_HasARank(string layer)
    {
        foreach (string folder in Directory.GetDirectories(Path.Combine(SourceRoot(), layer)).Select(static d => Path.GetFileName(d)))
            Subfolders(layer).Any(f => f.Folder == folder).ShouldBeTrue($"src/Picollo/{layer}/{folder} has no rank: add it to {nameof(LayeringTests)} and docs/ARCHITECTURE.md.");
    }

    [Theory]
    [MemberData(nameof(LayersWithSubfolders))]
    public void NoSubfolder_UsesAHigherOne(string layer)
    {
        var violations = new List<string>();
        foreach (Edge edge in SubfolderEdges(layer))
        {
            if (edge.To != edge.From && Rank(layer, edge.To) >= Rank(layer, edge.From))
                violations.Add($"{edge.File}:{edge.Line} ({layer}/{edge.From}, rank {Rank(layer, edge.From)}) uses {layer}/{edge.To} (rank {Rank(layer, edge.To)}): {edge.Text}");
        }

        violations.ShouldBeEmpty(
            $"A subfolder of {layer} uses one of its own rank or a higher one, against " +
            string.Join(" → ", Subfolders(layer).GroupBy(static f => f.Rank).Select(static g => string.Join("/", g.Select(static f => f.Folder)))) +
            $". Move the type to the lower subfolder, or to {layer} itself if every subfolder needs it.");
    }

    [Fact]
    public void Reader_SeesTheSubfolderEdgesThatExist()
    {
        var measurement = SubfolderEdges("Measurement").Select(static e => (e.From, e.To)).ToHashSet();
        var baselines = SubfolderEdges("Baselines").Select(static e => (e.From, e.To)).ToHashSet();

        measurement.ShouldContain(("Engine", "Conditions"), "a using directive");
        measurement.ShouldContain(("Engine", "Simulated"), "a using directive");
        measurement.ShouldContain(("Paired", "Engine"), "a using directive");
        baselines.ShouldContain(("Rules", "Records"), "a using directive");
        baselines.ShouldContain(("Storage", "Rules"), "a using directive");
        baselines.ShouldContain(("Judging", "Storage"), "a using directive");
    }

    [Fact]
    public void EveryFile_DeclaresTheNamespaceOfItsFolder()
    {
        string root = SourceRoot();
        var wrong = new List<string>();
        foreach (string file in SourceFiles())
        {
            string folder = Path.GetRelativePath(root, Path.GetDirectoryName(file)!);
            string expected = "Picollo" + (folder == "." ? string.Empty : "." + folder.Replace(Path.DirectorySeparatorChar, '.'));
            Match declared = NamespaceDeclaration().Match(File.ReadAllText(file));
            if (!declared.Success || declared.Groups[1].Value != expected)
                wrong.Add($"{Path.GetRelativePath(root, file)} declares '{(declared.Success ? declared.Groups[1].Value : "no namespace")}', expected '{expected}'");
        }

        wrong.ShouldBeEmpty("Folder = namespace");
    }

    private static int Layer(string folder) =>
        s_layers.FirstOrDefault(l => l.Folder == folder) is { Folder: not null } entry ? entry.Layer : throw new InvalidOperationException($"No layer for src/Picollo/{folder}.");

    private static IEnumerable<Edge> Edges()
    {
        string root = SourceRoot();
        foreach (string file in SourceFiles())
        {
            string relative = Path.GetRelativePath(root, file);
            string from = relative.Split(Path.DirectorySeparatorChar)[0];
            if (!s_layers.Any(l => l.Folder == from))
                continue;

            string[] lines = File.ReadAllLines(file);
            for (int i = 0; i < lines.Length; i++)
            {
                // Comments (XML docs included) and string literals (a metadata key "Picollo.ProjectDirectory") name things
                // without depending on them.
                string code = StringLiteral().Replace(StripComment(lines[i]), "\"\"");
                foreach (Match m in QualifiedName().Matches(code))
                    yield return new Edge(relative, i + 1, from, m.Groups[1].Value, lines[i].Trim());
                if (from != "Interop")
                {
                    foreach (Match m in InteropCall().Matches(code))
                        yield return new Edge(relative, i + 1, from, "Interop", lines[i].Trim());
                }
            }
        }
    }

    private static (string Folder, int Rank)[] Subfolders(string layer) =>
        layer == "Measurement" ? s_measurementFolders : layer == "Baselines" ? s_baselinesFolders : throw new ArgumentOutOfRangeException(nameof(layer));

    private static int Rank(string layer, string folder) =>
        Subfolders(layer).FirstOrDefault(f => f.Folder == folder) is { Folder: not null } entry
            ? entry.Rank
            : throw new InvalidOperationException($"No rank for src/Picollo/{layer}/{folder}.");

    // The edges between a layer's subfolders: Picollo.Layer.X in code (a using directive, plain, static or alias, or a
    // qualified name), and X.Y where X is a subfolder (a name qualified from the layer's own namespace). Files of the layer
    // itself are no subfolder's, and a name of the layer itself (Picollo.Measurement.PerfResult) is no edge.
    private static IEnumerable<Edge> SubfolderEdges(string layer)
    {
        string measurement = Path.Combine(SourceRoot(), layer);
        string[] subfolders = Subfolders(layer).Select(static f => f.Folder).ToArray();
        var partial = new Regex($@"(?<![\w.])({string.Join("|", subfolders)})\.[A-Z]");
        var qualified = new Regex($@"\bPicollo\.{layer}\.([A-Z][A-Za-z]*)\b");
        foreach (string file in SourceFiles().Where(f => Path.GetDirectoryName(f) != measurement
            && f.StartsWith(measurement + Path.DirectorySeparatorChar, StringComparison.Ordinal)))
        {
            string relative = Path.GetRelativePath(SourceRoot(), file);
            string from = Path.GetRelativePath(measurement, file).Split(Path.DirectorySeparatorChar)[0];
            string[] lines = File.ReadAllLines(file);
            for (int i = 0; i < lines.Length; i++)
            {
                string code = StringLiteral().Replace(StripComment(lines[i]), "\"\"");
                foreach (Match m in qualified.Matches(code).Concat(partial.Matches(code)).Where(n => subfolders.Contains(n.Groups[1].Value)))
                    yield return new Edge(relative, i + 1, from, m.Groups[1].Value, lines[i].Trim());
            }
        }
    }

    private static string StripComment(string line)
    {
        int comment = line.IndexOf("//", StringComparison.Ordinal);
        return comment < 0 ? line : line[..comment];
    }

    private static IEnumerable<string> SourceFiles() =>
        Directory.EnumerateFiles(SourceRoot(), "*.cs", SearchOption.AllDirectories)
            .Where(static f => !f.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal)
                && !f.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}", StringComparison.Ordinal));

    private static string SourceRoot([CallerFilePath] string here = "") =>
        Path.GetFullPath(Path.Combine(Path.GetDirectoryName(here)!, "..", "..", "..", "src", "Picollo"));

    // "using Picollo.X;", "using static Picollo.X.Y;", "using A = Picollo.X.Y;", and "Picollo.X.Y" anywhere in code.
    [GeneratedRegex(@"\bPicollo\.([A-Z][A-Za-z]*)\b")]
    private static partial Regex QualifiedName();

    // A call through the Interop namespace: Interop.Fd.Read(...), Interop.Errno.EINTR.
    [GeneratedRegex(@"(?<![\w.])Interop\.[A-Z]")]
    private static partial Regex InteropCall();

    // A regular string literal on one line, escapes included.
    [GeneratedRegex(@"""(?:[^""\\]|\\.)*""")]
    private static partial Regex StringLiteral();

    [GeneratedRegex(@"^namespace\s+([\w.]+)\s*;", RegexOptions.Multiline)]
    private static partial Regex NamespaceDeclaration();

    private sealed record Edge(string File, int Line, string From, string To, string Text);
}
