using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using System.Text.RegularExpressions;

namespace Picollo.Cli.Ab;

/// <summary>
/// Finds what an A/B run measures: the perf-test projects of a revision (by what they reference), and the perf tests of a
/// built assembly (by their attributes, read from its metadata: nothing of it is loaded or run).
/// </summary>
internal static partial class AbDiscovery
{
    private static readonly string[] s_adapters = ["Picollo.Testing.Xunit", "Picollo.Testing.NUnit"];

    // Folders that hold build outputs, packages or git's data, never a project of the repository's own.
    private static readonly HashSet<string> s_skippedFolders = new(StringComparer.OrdinalIgnoreCase)
    {
        "bin", "obj", ".git", "artifacts", "node_modules",
    };

    // The attributes that make a method a perf test, by namespace and type name.
    private static readonly Dictionary<(string Namespace, string Name), AbFramework> s_attributes = new()
    {
        [("Picollo.Testing.Xunit", "PerfFactAttribute")] = AbFramework.Xunit,
        [("Picollo.Testing.Xunit", "PerfTheoryAttribute")] = AbFramework.Xunit,
        [("Picollo.Testing.NUnit", "PerfTestAttribute")] = AbFramework.NUnit,
        [("Picollo.Testing.NUnit", "PerfTestCaseAttribute")] = AbFramework.NUnit,
    };

    /// <summary>
    /// The perf-test projects to build, relative to <paramref name="root"/> with <c>/</c> separators, sorted: the one
    /// <paramref name="project"/> names, or every project under the root that references <c>Picollo.Testing.Xunit</c> or
    /// <c>Picollo.Testing.NUnit</c>.
    /// </summary>
    /// <param name="root">The revision's root (a worktree or the repository's top level).</param>
    /// <param name="project">
    /// A <c>.csproj</c> or a folder holding exactly one, relative to the current folder or to <paramref name="root"/>; null to
    /// search.
    /// </param>
    /// <exception cref="AbException">The named project is missing, or the search found none.</exception>
    public static IReadOnlyList<string> FindProjects(string root, string? project)
    {
        root = Path.GetFullPath(root);
        if (!Directory.Exists(root))
            throw new AbException($"The folder {root} does not exist: picollo ab searches a revision's sources for perf-test projects.");
        if (project is not null)
            return [Relative(root, NamedProject(root, project))];

        string[] found = [.. ProjectFiles(root)
            .Where(static p => ReferencesAnAdapter(File.ReadAllText(p)))
            .Select(p => Relative(root, p))
            .Order(StringComparer.Ordinal)];
        return found.Length > 0
            ? found
            : throw new AbException(AbMessages.NoPerfTestProjects(root));
    }

    /// <summary>
    /// The perf tests of a built assembly: every method carrying <c>[PerfFact]</c> or <c>[PerfTheory]</c> (xunit.v3) or
    /// <c>[PerfTest]</c> or <c>[PerfTestCase]</c> (NUnit) in a class that is not abstract, including methods it inherits
    /// from base classes of the same assembly, one test per method, sorted by full name.
    /// </summary>
    /// <param name="projectRelativePath">The project the assembly was built from, as <see cref="FindProjects"/> returned it.</param>
    /// <param name="assemblyPath">The built assembly.</param>
    /// <param name="filter">
    /// Which tests, as <c>dotnet test --filter</c> selects them by <c>FullyQualifiedName</c>, <c>Name</c> (the method) and
    /// <c>ClassName</c> (<c>Namespace.Class</c>), compared ignoring case; a bare text means <c>FullyQualifiedName~text</c>.
    /// Null for all.
    /// </param>
    /// <exception cref="AbException">The assembly is missing or unreadable, its framework unclear, or the filter malformed.</exception>
    public static AbTestAssembly FindTests(string projectRelativePath, string assemblyPath, string? filter)
    {
        // Parsed first: a malformed filter is the user's to fix whatever the assembly holds.
        Func<AbTest, bool> selected = string.IsNullOrWhiteSpace(filter) ? static _ => true : AbTestFilter.Parse(filter);
        if (!File.Exists(assemblyPath))
            throw new AbException($"The assembly {assemblyPath} of {projectRelativePath} does not exist: build the project first.");

        try
        {
            using FileStream stream = File.OpenRead(assemblyPath);
            using var pe = new PEReader(stream);
            if (!pe.HasMetadata)
            {
                throw new AbException($"{assemblyPath} (built from {projectRelativePath}) is not a .NET assembly: "
                    + "it has no metadata to read perf tests from.");
            }

            MetadataReader metadata = pe.GetMetadataReader();
            var tests = new Dictionary<string, AbTest>(StringComparer.Ordinal);
            var frameworks = new HashSet<AbFramework>();
            foreach (TypeDefinitionHandle handle in metadata.TypeDefinitions)
            {
                TypeDefinition type = metadata.GetTypeDefinition(handle);

                // Test frameworks run tests of concrete classes only; a static class (abstract and sealed) is one they run.
                if ((type.Attributes & TypeAttributes.Abstract) != 0 && (type.Attributes & TypeAttributes.Sealed) == 0)
                    continue;

                string className = TypeName(metadata, handle);
                foreach ((string method, AbFramework framework) in PerfMethods(metadata, handle))
                {
                    var test = new AbTest(className + "." + method, className, method);
                    frameworks.Add(framework);
                    if (selected(test))
                        tests.TryAdd(test.FullName, test);
                }
            }

            AbFramework declared = Framework(projectRelativePath, metadata, frameworks);
            return new AbTestAssembly(
                projectRelativePath, assemblyPath, declared, [.. tests.Values.OrderBy(static t => t.FullName, StringComparer.Ordinal)]);
        }
        catch (BadImageFormatException e)
        {
            throw new AbException(
                $"{assemblyPath} (built from {projectRelativePath}) is not a readable .NET assembly ({e.Message}): rebuild the project.");
        }
    }

    private static string NamedProject(string root, string project)
    {
        // Relative to the current folder first (as the user typed it), then to the revision's root (the base's worktree
        // holds the same relative path as the working tree).
        string[] candidates = Path.IsPathRooted(project)
            ? [Path.GetFullPath(project)]
            : [Path.GetFullPath(project), Path.GetFullPath(Path.Combine(root, project))];
        string? outside = null;
        foreach (string candidate in candidates.Distinct(StringComparer.Ordinal))
        {
            if (!File.Exists(candidate) && !Directory.Exists(candidate))
                continue;
            if (!IsUnder(root, candidate))
            {
                outside ??= candidate;
                continue;
            }

            if (File.Exists(candidate))
            {
                return candidate.EndsWith(".csproj", StringComparison.OrdinalIgnoreCase)
                    ? candidate
                    : throw new AbException(
                        $"--project {project} is {candidate}, which is not a .csproj: name the perf-test project's .csproj or its folder.");
            }

            string[] projects = [.. Directory.EnumerateFiles(candidate, "*.csproj").Order(StringComparer.Ordinal)];
            return projects.Length switch
            {
                1 => projects[0],
                0 => throw new AbException(
                    $"--project {project}: the folder {candidate} holds no .csproj. Name the perf-test project's .csproj or its folder."),
                _ => throw new AbException($"--project {project}: the folder {candidate} holds {projects.Length} projects "
                    + $"({string.Join(", ", projects.Select(Path.GetFileName))}). Name the perf-test project's .csproj."),
            };
        }

        throw new AbException(outside is not null
            ? $"--project {project} is {outside}, outside the repository at {root}: name a perf-test project of the repository."
            : $"--project {project} does not exist (looked in {Directory.GetCurrentDirectory()} and {root}): "
                + "name a perf-test project's .csproj or its folder.");
    }

    private static bool IsUnder(string root, string path)
    {
        string relative = Path.GetRelativePath(root, path);
        return relative != ".."
            && !relative.StartsWith(".." + Path.DirectorySeparatorChar, StringComparison.Ordinal)
            && !Path.IsPathRooted(relative);
    }

    private static string Relative(string root, string path) => Path.GetRelativePath(root, path).Replace(Path.DirectorySeparatorChar, '/');

    private static IEnumerable<string> ProjectFiles(string root)
    {
        var options = new EnumerationOptions
        {
            IgnoreInaccessible = true,
            RecurseSubdirectories = false,
            AttributesToSkip = FileAttributes.ReparsePoint,
        };
        var folders = new Stack<string>([root]);
        while (folders.TryPop(out string? folder))
        {
            foreach (string file in Directory.EnumerateFiles(folder, "*.csproj", options))
                yield return file;

            // Symbolic links are skipped (AttributesToSkip): a link to a parent folder would loop forever.
            foreach (string sub in Directory.EnumerateDirectories(folder, "*", options))
            {
                if (!s_skippedFolders.Contains(Path.GetFileName(sub)))
                    folders.Push(sub);
            }
        }
    }

    private static bool ReferencesAnAdapter(string projectText)
    {
        foreach (Match reference in ReferenceInclude().Matches(projectText))
        {
            // A package id, or a project path whose file is the adapter's project.
            string include = reference.Groups["include"].Value.Trim();
            string name = Path.GetFileName(include.Replace('\\', '/'));
            if (name.EndsWith(".csproj", StringComparison.OrdinalIgnoreCase))
                name = name[..^".csproj".Length];
            if (s_adapters.Contains(name, StringComparer.OrdinalIgnoreCase))
                return true;
        }

        return false;
    }

    // The perf-test methods a class runs: its own and those of its base classes in this assembly (a base from another
    // assembly cannot be read without loading it), each name once, the most derived first.
    private static IEnumerable<(string Method, AbFramework Framework)> PerfMethods(MetadataReader metadata, TypeDefinitionHandle handle)
    {
        var seen = new HashSet<string>(StringComparer.Ordinal);
        TypeDefinitionHandle current = handle;

        // A bound on the chain's length: metadata can be malformed, and no real hierarchy is this deep.
        for (int depth = 0; depth < 64 && !current.IsNil; depth++)
        {
            TypeDefinition type = metadata.GetTypeDefinition(current);
            foreach (MethodDefinitionHandle methodHandle in type.GetMethods())
            {
                MethodDefinition method = metadata.GetMethodDefinition(methodHandle);
                if (PerfAttribute(metadata, method) is { } framework && seen.Add(metadata.GetString(method.Name)))
                    yield return (metadata.GetString(method.Name), framework);
            }

            current = BaseDefinition(metadata, type.BaseType);
        }
    }

    private static AbFramework? PerfAttribute(MetadataReader metadata, MethodDefinition method)
    {
        foreach (CustomAttributeHandle handle in method.GetCustomAttributes())
        {
            if (s_attributes.TryGetValue(AttributeType(metadata, metadata.GetCustomAttribute(handle)), out AbFramework framework))
                return framework;
        }

        return null;
    }

    private static (string Namespace, string Name) AttributeType(MetadataReader metadata, CustomAttribute attribute)
    {
        EntityHandle type = attribute.Constructor.Kind switch
        {
            HandleKind.MemberReference => metadata.GetMemberReference((MemberReferenceHandle)attribute.Constructor).Parent,
            HandleKind.MethodDefinition => metadata.GetMethodDefinition((MethodDefinitionHandle)attribute.Constructor).GetDeclaringType(),
            _ => default,
        };
        return type.Kind switch
        {
            HandleKind.TypeReference => (
                metadata.GetString(metadata.GetTypeReference((TypeReferenceHandle)type).Namespace),
                metadata.GetString(metadata.GetTypeReference((TypeReferenceHandle)type).Name)),
            HandleKind.TypeDefinition => (
                metadata.GetString(metadata.GetTypeDefinition((TypeDefinitionHandle)type).Namespace),
                metadata.GetString(metadata.GetTypeDefinition((TypeDefinitionHandle)type).Name)),
            _ => ("", ""),
        };
    }

    // The base class when this assembly defines it (directly, or as the generic type of a constructed base); nil otherwise.
    private static TypeDefinitionHandle BaseDefinition(MetadataReader metadata, EntityHandle baseType)
    {
        if (baseType.Kind == HandleKind.TypeDefinition)
            return (TypeDefinitionHandle)baseType;
        if (baseType.Kind != HandleKind.TypeSpecification)
            return default;

        BlobReader signature = metadata.GetBlobReader(metadata.GetTypeSpecification((TypeSpecificationHandle)baseType).Signature);
        if (signature.ReadSignatureTypeCode() != SignatureTypeCode.GenericTypeInstance)
            return default;
        _ = signature.ReadSignatureTypeCode();
        EntityHandle generic = signature.ReadTypeHandle();
        return generic.Kind == HandleKind.TypeDefinition ? (TypeDefinitionHandle)generic : default;
    }

    // Namespace.Outer+Inner, as Type.FullName and both frameworks' FullyQualifiedName spell a nested class.
    private static string TypeName(MetadataReader metadata, TypeDefinitionHandle handle)
    {
        TypeDefinition type = metadata.GetTypeDefinition(handle);
        string name = metadata.GetString(type.Name);
        TypeDefinitionHandle declaring = type.GetDeclaringType();
        if (!declaring.IsNil)
            return TypeName(metadata, declaring) + "+" + name;
        string space = metadata.GetString(type.Namespace);
        return space.Length == 0 ? name : space + "." + name;
    }

    private static AbFramework Framework(string projectRelativePath, MetadataReader metadata, HashSet<AbFramework> declared)
    {
        if (declared.Count == 1)
            return declared.Single();
        if (declared.Count > 1)
            throw new AbException(AbMessages.BothFrameworks(projectRelativePath));

        // No perf test (or none in a class that runs): the adapter the assembly references says which framework it is.
        AbFramework[] referenced = [.. metadata.AssemblyReferences
            .Select(h => metadata.GetString(metadata.GetAssemblyReference(h).Name))
            .Where(static n => s_adapters.Contains(n, StringComparer.OrdinalIgnoreCase))
            .Select(static n => n.EndsWith("NUnit", StringComparison.OrdinalIgnoreCase) ? AbFramework.NUnit : AbFramework.Xunit)
            .Distinct()];
        return referenced.Length == 1
            ? referenced[0]
            : throw new AbException(AbMessages.NotAPerfTestProject(projectRelativePath, referenced.Length));
    }

    // <PackageReference Include="Picollo.Testing.Xunit" ...>,
    // <ProjectReference Include="../Picollo.Testing.NUnit/Picollo.Testing.NUnit.csproj" />.
    [GeneratedRegex(
        """<\s*(PackageReference|ProjectReference|Reference)\b[^>]*?\bInclude\s*=\s*["'](?<include>[^"']*)["']""",
        RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex ReferenceInclude();
}
