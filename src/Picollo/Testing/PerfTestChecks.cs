using System.Globalization;
using System.Runtime.ExceptionServices;
using System.Text;
using Picollo.Assertions;

namespace Picollo.Testing;

/// <summary>
/// The checks of one perf test (its declared budgets, the baseline, the claims against a reference), each run whatever the
/// others did, and reported together: a baseline verdict that failed first used to hide a broken <c>ZeroBudget</c>, so a
/// user fixed one failure to meet the next. Budgets come first in the message: they are what the user declared.
/// </summary>
internal sealed class PerfTestChecks
{
    private readonly List<Exception> _budgets = [];
    private readonly List<Exception> _others = [];

    /// <summary>Runs a declared budget; its failure is kept.</summary>
    /// <param name="check">The budget's assertion.</param>
    public void Budget(Action check) => Run(check, _budgets);

    /// <summary>Runs the baseline judgement or a claim against the reference; its failure is kept.</summary>
    /// <param name="check">The assertion.</param>
    public void Other(Action check) => Run(check, _others);

    /// <summary>
    /// Throws what failed: one failure as it was thrown (its message and type unchanged), several as one
    /// <see cref="PerfAssertionException"/> that lists them, budgets first, each with its whole message.
    /// </summary>
    /// <param name="test">The test's display name.</param>
    public void ThrowIfAnyFailed(string test)
    {
        Exception[] failed = [.. _budgets, .. _others];
        if (failed.Length == 0)
            return;
        if (failed.Length == 1)
            ExceptionDispatchInfo.Throw(failed[0]);

        var text = new StringBuilder();
        text.Append(CultureInfo.InvariantCulture, $"{failed.Length} checks of {test} failed, budgets first:").Append('\n');
        for (int i = 0; i < failed.Length; i++)
            text.Append(CultureInfo.InvariantCulture, $"{i + 1}. {FirstLine(failed[i].Message)}").Append('\n');
        for (int i = 0; i < failed.Length; i++)
        {
            text.Append('\n').Append(CultureInfo.InvariantCulture, $"[{i + 1} of {failed.Length}] ")
                .Append(failed[i].Message.TrimEnd('\n'));
            text.Append('\n');
        }

        throw new PerfAssertionException(text.ToString());
    }

    // An unavailable counter under WhenUnavailable = Fail is a failed check too; a body that threw, a cancellation or a
    // configuration error is not a check's verdict and ends the test at once.
    private static void Run(Action check, List<Exception> failures)
    {
        try
        {
            check();
        }
        catch (Exception e) when (e is PerfAssertionException or PerfCounterUnavailableException)
        {
            failures.Add(e);
        }
    }

    private static string FirstLine(string message)
    {
        int end = message.IndexOf('\n', StringComparison.Ordinal);
        return end < 0 ? message : message[..end];
    }
}
