using System.Collections.Concurrent;
using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;

namespace Picollo.Testing.NUnit;

/// <summary>
/// The source file of a test method, read from its assembly's portable PDB (embedded, or beside the assembly): a
/// <c>[PerfTestCase]</c> takes its data through <c>params</c>, which leaves no room for a <c>[CallerFilePath]</c>, and its
/// baseline lives beside the source file. A deterministic build's <c>/_/</c> paths are mapped back by the baseline locator.
/// </summary>
internal static class SourceFile
{
    private static readonly ConcurrentDictionary<Assembly, MetadataReaderProvider?> s_pdbs = new();

    /// <summary>The path of the file that holds <paramref name="method"/>'s body.</summary>
    /// <exception cref="PerfTestConfigurationException">The assembly has no portable PDB, or the method no sequence point.</exception>
    public static string Of(MethodInfo method, string attribute)
    {
        MetadataReaderProvider? pdb = s_pdbs.GetOrAdd(method.Module.Assembly, Open);
        if (pdb is not null)
        {
            MetadataReader reader = pdb.GetMetadataReader();
            MethodDebugInformation debug = reader.GetMethodDebugInformation(MetadataTokens.MethodDefinitionHandle(method.MetadataToken));
            DocumentHandle document = !debug.Document.IsNil
                ? debug.Document
                : debug.GetSequencePoints().Select(static p => p.Document).FirstOrDefault(static d => !d.IsNil);
            if (!document.IsNil)
                return reader.GetString(reader.GetDocument(document).Name);
        }

        string assembly = method.Module.Assembly.GetName().Name ?? "";
        string name = $"{method.DeclaringType?.Name}.{method.Name}";
        throw new PerfTestConfigurationException(NUnitMessages.NoPortablePdb(attribute, name, assembly));
    }

    private static MetadataReaderProvider? Open(Assembly assembly)
    {
        if (string.IsNullOrEmpty(assembly.Location) || !File.Exists(assembly.Location))
            return null;

        try
        {
            using var stream = File.OpenRead(assembly.Location);
            using var pe = new PEReader(stream);
            return pe.TryOpenAssociatedPortablePdb(
                assembly.Location,
                static path => File.Exists(path) ? File.OpenRead(path) : null,
                out MetadataReaderProvider? provider,
                out _)
                ? provider
                : null;
        }
        catch (Exception e) when (e is IOException or BadImageFormatException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
