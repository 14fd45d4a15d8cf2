using System.Text;

namespace Picollo.Text;

/// <summary>
/// A small markdown table whose cells are padded to their column width, so the text reads as a table
/// in a console and renders as one in any markdown viewer.
/// </summary>
/// <remarks>A leaf utility: Metrics (histogram summaries) and Reporting (reports) both draw with it.</remarks>
internal sealed class MarkdownTable
{
    private readonly string[] _headers;
    private readonly bool[] _rightAligned;
    private readonly List<string[]> _rows = [];

    /// <param name="columns">Header text and alignment of each column.</param>
    public MarkdownTable(params ReadOnlySpan<(string Header, bool RightAligned)> columns)
    {
        _headers = new string[columns.Length];
        _rightAligned = new bool[columns.Length];
        for (int i = 0; i < columns.Length; i++)
            (_headers[i], _rightAligned[i]) = columns[i];
    }

    /// <summary>Adds a row; missing trailing cells are empty.</summary>
    public void AddRow(params ReadOnlySpan<string> cells)
    {
        var row = new string[_headers.Length];
        for (int i = 0; i < row.Length; i++)
            row[i] = i < cells.Length ? cells[i] : string.Empty;
        _rows.Add(row);
    }

    /// <summary>Writes a level-5 heading, the table, and one blank line after it (so printed tables stay apart).</summary>
    public void WriteTo(StringBuilder builder, string title)
    {
        WriteOpenTo(builder, title);
        builder.Append('\n');
    }

    /// <summary>
    /// Writes a level-5 heading and the table without the blank line that would end it, so rows written later by
    /// <see cref="WriteRowsTo"/> (of another table with the same columns) continue it.
    /// </summary>
    public void WriteOpenTo(StringBuilder builder, string title)
    {
        int[] widths = Widths();
        builder.Append("##### ").Append(title).Append('\n');
        AppendRow(builder, _headers, widths);

        builder.Append('|');
        for (int c = 0; c < widths.Length; c++)
        {
            builder.Append(' ');
            if (_rightAligned[c])
                builder.Append('-', widths[c] - 1).Append(':');
            else
                builder.Append(':').Append('-', widths[c] - 1);
            builder.Append(" |");
        }

        builder.Append('\n');
        WriteRowsTo(builder);
    }

    /// <summary>
    /// Writes the rows alone: the continuation of a table opened by <see cref="WriteOpenTo"/>. They are padded to this
    /// table's widths, which may differ from the opened table's: markdown renders it the same, only the raw text is ragged.
    /// </summary>
    public void WriteRowsTo(StringBuilder builder)
    {
        int[] widths = Widths();
        foreach (string[] row in _rows)
            AppendRow(builder, row, widths);
    }

    private int[] Widths()
    {
        var widths = new int[_headers.Length];
        for (int c = 0; c < widths.Length; c++)
        {
            // Three is the shortest delimiter cell markdown accepts (":--" / "--:").
            widths[c] = Math.Max(3, _headers[c].Length);
            foreach (string[] row in _rows)
                widths[c] = Math.Max(widths[c], row[c].Length);
        }

        return widths;
    }

    private void AppendRow(StringBuilder builder, string[] cells, int[] widths)
    {
        builder.Append('|');
        for (int c = 0; c < cells.Length; c++)
        {
            builder.Append(' ');
            builder.Append(_rightAligned[c] ? cells[c].PadLeft(widths[c]) : cells[c].PadRight(widths[c]));
            builder.Append(" |");
        }

        builder.Append('\n');
    }
}
