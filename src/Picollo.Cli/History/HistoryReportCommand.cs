using System.Text;
using Picollo.Cli.History.ChangePoints;
using Picollo.Cli.History.Reports;
using Picollo.Cli.History.Store;
using Spectre.Console;

namespace Picollo.Cli.History;

/// <summary>
/// <c>picollo history report [--html FILE] [--test FILTER] [--branch NAME]</c>: every series' change points as markdown on
/// standard output (a comment's text), and with <c>--html</c> one page with a trend per test and counter.
/// </summary>
internal static class HistoryReportCommand
{
    /// <summary>What the command was asked.</summary>
    /// <param name="Store">The store (<c>--store</c>), or <see langword="null"/> for <c>PICOLLO_HISTORY</c> or the default file.</param>
    /// <param name="Test">A test name or pattern, or <see langword="null"/> for every test.</param>
    /// <param name="Branch">Only this branch's runs, or <see langword="null"/> for all.</param>
    /// <param name="Html">Where to write the page, or <see langword="null"/> for none.</param>
    public sealed record Request(string? Store, string? Test, string? Branch, string? Html);

    /// <summary>Writes the report; a store that cannot be read is an error (exit 2) and nothing is written.</summary>
    public static int Run(IAnsiConsole console, IAnsiConsole errors, Request request)
    {
        if (!HistoryCommandLine.TryAnalyze(errors, request.Store, request.Test, request.Branch, out var analyses, out string store))
            return ExitCodes.Error;

        console.Profile.Out.Writer.Write(HistoryMarkdown.Write(analyses, store));
        if (request.Html is { } html)
        {
            File.WriteAllText(html, HistoryHtml.Write(analyses, store), new UTF8Encoding(encoderShouldEmitUTF8Identifier: false));
            errors.Profile.Out.Writer.WriteLine(HistoryReportMessages.PageWritten(Path.GetFullPath(html), analyses.Count));
        }

        return ExitCodes.Success;
    }
}
