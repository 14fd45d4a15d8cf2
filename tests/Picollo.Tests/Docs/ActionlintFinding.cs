namespace Picollo.Tests.Docs;

/// <summary>One finding of actionlint in a workflow: where, which check (<paramref name="Kind"/>), and what it says.</summary>
/// <param name="Path">The name the workflow was linted under.</param>
/// <param name="Line">The line, from 1 (for docs/CI.md, counted from the first line of its workflow block).</param>
/// <param name="Column">The column, from 1.</param>
/// <param name="Kind">actionlint's name for the check: <c>expression</c>, <c>action</c>, <c>runner-label</c>, …</param>
/// <param name="Message">What actionlint says.</param>
internal sealed record ActionlintFinding(string Path, int Line, int Column, string Kind, string Message)
{
    /// <summary>As actionlint prints a finding: <c>path:line:column: message [kind]</c>.</summary>
    public override string ToString() => $"{Path}:{Line}:{Column}: {Message} [{Kind}]";
}
