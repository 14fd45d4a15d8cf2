using System.Xml.Linq;
using Shouldly;
using Xunit;

namespace Picollo.Packaging.Tests;

/// <summary>
/// A library's perf tests in a coverage run, as many CI pipelines run every test: <c>dotnet test --collect:"XPlat Code
/// Coverage"</c> with coverlet.collector, which rewrites the library on disk before the test host loads it. The perf test is
/// skipped with the reason and the fix, and nothing is recorded; the same project without coverage measures and records.
/// One framework: the xunit and NUnit adapters share the check (<c>PerfTestExecution</c>), and the in-process adapter tests
/// run it through both. Its first run measures nothing, the second one body for about a second, so it runs with the other
/// tests, not in <see cref="TemplateRunsGroup"/>.
/// </summary>
public sealed class CoverageTests(PackageFeed feed)
{
    [Fact]
    public async Task CoverletCollector_SkipsThePerfTestWithTheReason_AndRecordsNothing_WithoutCoverageItMeasures()
    {
        string project = await CreateAsync();

        (DotNet.Run covered, IReadOnlyList<TrxResult> coveredResults) =
            await feed.TestAsync(project, "Release", null, "--collect:XPlat Code Coverage");

        covered.ExitCode.ShouldBe(0, covered.Output);
        coveredResults.ShouldHaveSingleItem().Outcome.ShouldBe("NotExecuted", covered.Output);
        // The library, and here Picollo's own assemblies too: packed from this repository, their sources are on this machine,
        // and coverlet rewrites every module whose sources it finds (a package from nuget.org has none).
        covered.Output.ShouldContain(
            "The perf test WordsPerf.Count runs code instrumented for code coverage: coverlet rewrote Acme.Text.dll",
            customMessage: covered.Output);
        covered.Output.ShouldContain(
            " to count every line and branch it runs (Coverlet.Core.Instrumentation.Tracker.Acme.Text_", customMessage: covered.Output);
        covered.Output.ShouldContain(
            "Run perf tests without coverage, or leave them out of the coverage run: "
                + "`dotnet test --collect:\"XPlat Code Coverage\" --filter Category!=Performance`.",
            customMessage: covered.Output);
        Directory.GetFiles(project, "*.perf.json", SearchOption.AllDirectories).ShouldBeEmpty("nothing is recorded from instrumented code");

        // Coverage did run, on the library the perf test calls: coverlet's report covers Acme.Text (the TRX logger keeps a
        // copy of it among its attachments).
        string[] reports = Directory.GetFiles(Path.Combine(project, "TestResults-Release"), "coverage.cobertura.xml", SearchOption.AllDirectories);
        reports.ShouldNotBeEmpty(covered.Output);
        XDocument.Load(reports[0]).Descendants("package").Select(static p => (string?)p.Attribute("name")).ShouldContain("Acme.Text");

        // The same project without coverage: coverlet put the library back, and the perf test measures and records.
        (DotNet.Run plain, IReadOnlyList<TrxResult> plainResults) = await feed.TestAsync(project, "Release");

        plainResults.ShouldHaveSingleItem().Outcome.ShouldBe("Passed", plain.Output);
        plain.Output.ShouldContain("#### WordsPerf.Count: ", customMessage: plain.Output);
        plain.Output.ShouldNotContain("instrumented for code coverage", customMessage: plain.Output);
        File.Exists(Path.Combine(project, "WordsPerf.Count.received.perf.json")).ShouldBeTrue(plain.Output);
    }

    // A library, Acme.Text, and a project from the xunit template whose one perf test calls it, with coverlet.collector at
    // the version the repository pins.
    private async Task<string> CreateAsync()
    {
        string project = await feed.CreateProjectAsync("picollo-xunit", "Acme.Text.PerfTests");
        string library = Path.Combine(Path.GetDirectoryName(project)!, "Acme.Text");
        Directory.CreateDirectory(library);
        await File.WriteAllTextAsync(Path.Combine(library, "Acme.Text.csproj"), """
            <Project Sdk="Microsoft.NET.Sdk">
              <PropertyGroup>
                <TargetFramework>net10.0</TargetFramework>
                <Nullable>enable</Nullable>
              </PropertyGroup>
            </Project>
            """);
        await File.WriteAllTextAsync(Path.Combine(library, "Words.cs"), """
            namespace Acme.Text;

            public static class Words
            {
                public static int Count(string text)
                {
                    int words = 0;
                    bool inWord = false;
                    foreach (char c in text)
                    {
                        bool letter = !char.IsWhiteSpace(c);
                        if (letter && !inWord)
                            words++;
                        inWord = letter;
                    }

                    return words;
                }
            }
            """);

        File.Delete(Path.Combine(project, "ChecksumPerf.cs"));
        await File.WriteAllTextAsync(Path.Combine(project, "WordsPerf.cs"), """
            using Acme.Text;

            namespace Acme.Text.PerfTests;

            public class WordsPerf
            {
                private static readonly string s_text = string.Join(' ', Enumerable.Repeat("the quick brown fox jumps over the lazy dog", 20));

                // Recorded in this process alone: the run without coverage takes one measurement.
                [PerfFact(RecordingProcesses = 0)]
                public int Count() => Words.Count(s_text);
            }
            """);

        string csproj = Path.Combine(project, "Acme.Text.PerfTests.csproj");
        XDocument document = XDocument.Load(csproj);
        document.Root!.Add(new XElement(
            "ItemGroup",
            new XElement("ProjectReference", new XAttribute("Include", "../Acme.Text/Acme.Text.csproj")),
            new XElement("PackageReference", new XAttribute("Include", "coverlet.collector"), new XAttribute("Version", CoverletVersion()))));
        document.Save(csproj);
        return project;
    }

    // One pin for the repository's own coverage and this user's: Directory.Packages.props.
    private string CoverletVersion() =>
        XDocument.Load(Path.Combine(feed.RepositoryRoot, "Directory.Packages.props")).Descendants("PackageVersion")
            .Single(static p => (string?)p.Attribute("Include") == "coverlet.collector").Attribute("Version")!.Value;
}
