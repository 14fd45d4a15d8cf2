namespace Picollo.Testing;

/// <summary>
/// What a knob of <see cref="IPerfTestDeclaration"/> is besides its name, type and summary: the one table of knobs
///. The attributes' properties are written from it at build time (src/Picollo.Generators), and docs/TESTING.md's
/// knob table is checked against it by a test, so adding a knob is one member of the interface plus its parsing in
/// <see cref="PerfTestSettings"/>.
/// </summary>
/// <remarks>
/// Attribute properties cannot be nullable, so a knob of a value type shows <see cref="Unset"/> through the attribute's
/// getter while it is not set; <see cref="IPerfTestDeclaration"/> gives <see langword="null"/> then.
/// </remarks>
[AttributeUsage(AttributeTargets.Property, AllowMultiple = false)]
internal sealed class PerfKnobAttribute : Attribute
{
    /// <summary>Creates the entry of one knob.</summary>
    /// <param name="form">The values it takes, for the docs' table (markdown).</param>
    /// <param name="defaultValue">What applies when neither the test nor the assembly sets it, for the docs' table (markdown).</param>
    public PerfKnobAttribute(string form, string defaultValue)
    {
        Form = form;
        Default = defaultValue;
    }

    /// <summary>The values it takes (markdown).</summary>
    public string Form { get; }

    /// <summary>What applies when it is not set (markdown).</summary>
    public string Default { get; }

    /// <summary>
    /// The attribute getter's value while a value-type knob is not set (default: the type's default, NaN for numbers
    /// with a fraction).
    /// </summary>
    public object? Unset { get; init; }

    /// <summary>One test's claim about its own body: declared on the test attributes, not on <see cref="PerfDefaultsAttribute"/>.</summary>
    public bool TestOnly { get; init; }
}
