namespace Picollo.Testing.NUnit;

/// <summary>
/// What a Picollo attribute built a test from: its knobs, the case's data and the source file (when the attribute knows it).
/// </summary>
/// <param name="Declaration">The attribute's knobs.</param>
/// <param name="Attribute">The attribute as written in messages.</param>
/// <param name="Data">The case's data, without the <see cref="PerfContext"/>.</param>
/// <param name="SourceFilePath">
/// The test's source file, or <see langword="null"/> to find it through the method's debug information.
/// </param>
internal sealed record PerfNUnitSpec(IPerfTestDeclaration Declaration, string Attribute, object?[] Data, string? SourceFilePath);
