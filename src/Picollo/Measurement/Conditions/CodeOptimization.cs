using System.Diagnostics;
using System.Reflection;

namespace Picollo.Measurement.Conditions;

/// <summary>
/// Tells whether the measured code is optimized, and why not: code compiled without optimizations (a Debug build,
/// MinOpts) runs several times slower than what the same source does in a Release build, so its numbers must never pass
/// for real ones.
/// </summary>
/// <remarks>
/// Two pieces of evidence. The assembly: the compiler marks one built without optimizations (Debug, or
/// <c>&lt;Optimize&gt;false&lt;/Optimize&gt;</c>) with a <see cref="DebuggableAttribute"/> that disables the JIT optimizer,
/// which then compiles all its methods with MinOpts; this holds even when the body was compiled before the measurement,
/// where no JIT event can tell. The JIT: warmup ends with <see cref="WarmupEnd.CodeUnoptimized"/> when the runtime's events
/// showed the body's method compiled with MinOpts for any other reason.
/// </remarks>
internal static class CodeOptimization
{
    // The runtime's own knobs (JitMinOpts in clrconfignames.h), read under either prefix.
    private static readonly string[] s_minOptsVariables = ["DOTNET_JITMinOpts", "COMPlus_JITMinOpts"];

    /// <summary>
    /// A note when Picollo itself was built without optimizations; <see langword="null"/> otherwise. Its sample loop and
    /// counter reads then run slower code: the boundary costs more, though the calibrated overhead is still subtracted.
    /// </summary>
    public static string? EngineNote { get; } = UnoptimizedBuild(typeof(CodeOptimization).Assembly) is { } build
        ? MeasurementMessages.EngineBuiltUnoptimized(build.Description)
        : null;

    /// <summary>Why the body's numbers are not those of optimized code; <see langword="null"/> when they are.</summary>
    /// <param name="body">The measured delegate's method.</param>
    /// <param name="warmupEnd">What ended its warmup (<see cref="WarmupEnd.CodeUnoptimized"/> when the JIT showed MinOpts).</param>
    /// <returns>A sentence that names the body, the reason and what to do.</returns>
    public static string? UnoptimizedReason(MethodInfo body, WarmupEnd warmupEnd)
    {
        if (UnoptimizedBuildReason(body) is { } build)
            return build;
        if (warmupEnd != WarmupEnd.CodeUnoptimized)
            return null;
        (string cause, string remedy) = MinOptsCause(body);
        return MeasurementMessages.UnoptimizedCode(Describe(body), cause, remedy);
    }

    /// <summary>
    /// Why the body's assembly makes its numbers those of unoptimized code (a Debug build); <see langword="null"/> when it
    /// does not. Known before anything is measured: a test adapter asks it first, so a Debug build's perf tests are skipped
    /// without a wait or a measurement.
    /// </summary>
    /// <param name="body">The measured method.</param>
    /// <param name="subject">
    /// What the sentence names, e.g. <c>The perf test Parsing.Parse</c>; the body itself when <see langword="null"/>.
    /// </param>
    /// <returns>A sentence that names the subject, the assembly, the reason and what to do.</returns>
    public static string? UnoptimizedBuildReason(MethodInfo body, string? subject = null)
    {
        // A DynamicMethod has no declaring type, and its IL is not the assembly's: only the JIT can tell.
        if (body.DeclaringType is null || UnoptimizedBuild(body.Module.Assembly) is not { } build)
            return null;
        return MeasurementMessages.UnoptimizedBuild(subject, Describe(body), body.Module.Name, build.Description, build.Remedy);
    }

    private static (string Description, string Remedy)? UnoptimizedBuild(Assembly assembly)
    {
        if (assembly.GetCustomAttribute<DebuggableAttribute>() is not { IsJITOptimizerDisabled: true })
            return null;

        // The SDK stamps $(Configuration) into AssemblyConfigurationAttribute; Optimize is what actually decides.
        string? configuration = assembly.GetCustomAttribute<AssemblyConfigurationAttribute>()?.Configuration;
        if (string.IsNullOrEmpty(configuration))
        {
            return ("its DebuggableAttribute disables the JIT optimizer",
                "Build it with optimizations, e.g. in Release: `dotnet test -c Release`.");
        }

        if (string.Equals(configuration, "Debug", StringComparison.OrdinalIgnoreCase))
            return ("Debug configuration", "Run it in Release: `dotnet test -c Release` (or `dotnet run -c Release`).");
        return ($"{configuration} configuration with <Optimize>false</Optimize>", "Remove <Optimize>false</Optimize> from its project.");
    }

    private static (string Cause, string Remedy) MinOptsCause(MethodInfo body)
    {
        if ((body.MethodImplementationFlags & MethodImplAttributes.NoOptimization) != 0)
            return ("because it is marked [MethodImpl(MethodImplOptions.NoOptimization)]", "Remove that flag to measure optimized code.");
        if (Debugger.IsAttached)
            return ("under the attached debugger", "Measure without a debugger.");
        foreach (string variable in s_minOptsVariables)
        {
            if (Environment.GetEnvironmentVariable(variable) is { Length: > 0 } value && value != "0")
                return ($"because {variable}={value} is set", $"Unset {variable}.");
        }

        return ("(a debugger, DOTNET_JITMinOpts, or a method too large for the JIT to optimize)", "Remove the cause and measure again.");
    }

    // A lambda's method lives in a compiler-generated closure class (<>c, <>c__DisplayClass0_0): name the class that wrote it,
    // and the method the lambda or local function is written in. Its own name (TokenizerPerf.<Tokenize>b__2_0, Roslyn's
    // <outer>b__N_M for lambdas and <outer>g__name|N_M for local functions) is no name a user wrote (issue 27).
    internal static string Describe(MethodInfo method)
    {
        Type? type = method.DeclaringType;
        while (type is { DeclaringType: not null } && type.Name.StartsWith('<'))
            type = type.DeclaringType;
        string name = method.Name;
        int close = name.IndexOf('>', StringComparison.Ordinal);
        if (type is null || !name.StartsWith('<') || close < 0 || close + 1 >= name.Length)
            return type is null ? name : $"{type.Name}.{name}";

        // A lambda of a field or property initializer is written in the constructor (.ctor, .cctor): the class says enough.
        string outer = name[1..close];
        string owner = outer.Length == 0 || outer.StartsWith('.') ? type.Name : $"{type.Name}.{outer}";
        if (name[close + 1] == 'g' && name.IndexOf("g__", close, StringComparison.Ordinal) == close + 1)
        {
            string local = name[(close + 4)..];
            int bar = local.IndexOf('|', StringComparison.Ordinal);
            return $"{(bar >= 0 ? local[..bar] : local)} (a local function in {owner})";
        }

        return $"(a lambda in {owner})";
    }
}
