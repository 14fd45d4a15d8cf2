using System.Globalization;
using System.Reflection;
using System.Runtime.CompilerServices;
using Picollo.Baselines;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Shouldly;
using Xunit;
using static Picollo.Tests.Baselines.BaselineTestData;

namespace Picollo.Tests.Baselines;

/// <summary>
/// The verdict rules' numbers live in one type, <see cref="JudgementPolicy"/>, and docs/VERDICTS.md's table ("The policy in
/// one table") lists each with its value: read back both ways, as the knob table of docs/TESTING.md is. The machine's core
/// count is an input of the same type, not a rule.
/// </summary>
public sealed class JudgementPolicyTests
{
    private const string Header = "| Setting | Value | What it guards |\n| --- | --- | --- |\n";

    [Fact]
    public void EverySetting_HasExactlyOneRowWithItsValue_AndEveryRowNamesASetting()
    {
        Dictionary<string, List<string>> rows = Rows();
        PropertyInfo[] settings = [.. Settings()];
        settings.Length.ShouldBeGreaterThan(10, "the policy's settings are found by reflection");

        foreach (PropertyInfo setting in settings)
        {
            rows.TryGetValue(setting.Name, out List<string>? values)
                .ShouldBeTrue($"docs/VERDICTS.md's policy table has no row for {setting.Name}");
            values!.Count.ShouldBe(1, $"{setting.Name} has one row");
            double written = double.Parse(values[0], NumberStyles.Float, CultureInfo.InvariantCulture);
            double actual = Convert.ToDouble(setting.GetValue(JudgementPolicy.Default), CultureInfo.InvariantCulture);
            written.ShouldBe(actual, $"{setting.Name}'s value in docs/VERDICTS.md");
        }

        string[] names = [.. settings.Select(static s => s.Name)];
        foreach (string row in rows.Keys)
            names.ShouldContain(row, $"docs/VERDICTS.md's policy table names '{row}', which JudgementPolicy has no setting for");
    }

    [Fact]
    public void TheCoreCount_IsAnInput_NotARow()
    {
        Rows().Keys.ShouldNotContain(nameof(JudgementPolicy.Cores), "the machine's core count is not a rule");
        JudgementPolicy.Default.Cores.ShouldBe(Environment.ProcessorCount);
    }

    [Fact]
    public void TwoPoliciesThatDifferOnlyInCores_AllowTheSameLoadDifferently()
    {
        // Three other cores busy, as a record says (the record is data; this machine's own count plays no part). On a policy
        // of 4 cores that is every core the measured thread does not use (+15 %); on one of 5, three quarters, the least
        // that is busy (+11.25 %); on one of 25, too little to call the machine busy: the policy's count decides.
        const int others = 3;
        BaselineRecord recorded = Record(TscCounter(FloorRun(seed: 1)));
        BaselineRecord busy = Record(TscCounter(FloorRun(seed: 2))) with { OtherProcessesCores = others };
        BaselineCounter reference = recorded.Find("tsc")!;
        JudgementPolicy few = JudgementPolicy.Default with { Cores = others + 1 };
        JudgementPolicy many = few with { Cores = others + 2 };

        TimeAllowance onFew = TimeAllowance.For(reference, recorded, busy, few);
        TimeAllowance onMany = TimeAllowance.For(reference, recorded, busy, many);

        onFew.High.ShouldBe(Math.Log(1 + few.BusyShare), 1e-12);
        onMany.High.ShouldBe(Math.Log(1 + (many.BusyShare * 0.75)), 1e-12);
        onFew.Describe().ShouldContain($"of {few.Cores} cores");
        onMany.Describe().ShouldContain($"of {many.Cores} cores");
        TimeAllowance onMost = TimeAllowance.For(reference, recorded, busy, few with { Cores = 25 });
        onMost.High.ShouldBe(0, "not busy on a machine of that many cores");

        // And through a verdict policy, as every caller reaches it.
        var file = new BaselineFile([new BaselineEntry(Epyc, recorded)]);
        CounterVerdict verdict =
            BaselineComparer.Compare(file, Epyc, busy, VerdictPolicy.Default.WithJudgement(many)).ShouldHaveSingleItem();
        verdict.Allowance.ShouldNotBeNull().High.ShouldBe(onMany.High, 1e-12);
    }

    [Fact]
    public void WithThresholds_KeepsTheJudgement()
    {
        JudgementPolicy judgement = JudgementPolicy.Default with { Cores = 64 };

        VerdictPolicy.Default.WithJudgement(judgement).WithThresholds(maxChange: 0.05).Judgement.ShouldBeSameAs(judgement);
        VerdictPolicy.Default.Judgement.ShouldBeSameAs(JudgementPolicy.Default);
    }

    // Every public property but the machine's core count.
    private static IEnumerable<PropertyInfo> Settings() => typeof(JudgementPolicy)
        .GetProperties(BindingFlags.Public | BindingFlags.Instance)
        .Where(static p => p.Name != nameof(JudgementPolicy.Cores));

    // The table's rows: setting name → the values written for it (one, unless a name is repeated).
    private static Dictionary<string, List<string>> Rows()
    {
        string docs = File.ReadAllText(Path.Combine(RepositoryRoot(), "docs", "VERDICTS.md")).ReplaceLineEndings("\n");
        int start = docs.IndexOf(Header, StringComparison.Ordinal);
        start.ShouldBeGreaterThan(0, "docs/VERDICTS.md has the policy table under \"## The policy in one table\"");
        int end = docs.IndexOf("\n\n", start, StringComparison.Ordinal);
        var rows = new Dictionary<string, List<string>>(StringComparer.Ordinal);
        foreach (string line in docs[(start + Header.Length)..end].Split('\n', StringSplitOptions.RemoveEmptyEntries))
        {
            string[] cells = line.Split('|');
            cells.Length.ShouldBe(5, $"a row of three cells: {line}");
            string name = cells[1].Trim().Trim('`'), value = cells[2].Trim().Trim('`');
            if (!rows.TryGetValue(name, out List<string>? values))
                rows[name] = values = [];
            values.Add(value);
        }

        return rows;
    }

    private static string RepositoryRoot([CallerFilePath] string here = "") =>
        Path.GetFullPath(Path.Combine(Path.GetDirectoryName(here)!, "..", "..", ".."));
}
