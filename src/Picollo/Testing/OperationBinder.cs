using System.Globalization;
using System.Linq.Expressions;
using System.Reflection;
using Picollo.Measurement;
using Picollo.PerfEvents;

namespace Picollo.Testing;

/// <summary>
/// Measures a test method as the operation: the method is turned once into a delegate bound to the test-class instance,
/// with the theory case's arguments bound once too, and measured through <see cref="Perf"/>'s allocation-free loops: no
/// reflection and no allocation per call. With no argument or one, the measured delegate is the method itself, so the
/// warmup watches the test method's own JIT tier; with two or three, a small static lambda passes them from a tuple.
/// The <c>Against</c> knob binds the reference method the same way and measures both in pairs (<see cref="Compare"/>).
/// </summary>
internal static class OperationBinder
{
    /// <summary>The most theory arguments a body-as-operation test can take.</summary>
    public const int MaxArguments = 3;

    private const int MaxSuggestions = 3;

    private static readonly MethodInfo[] s_funcs = Helpers("Func");
    private static readonly MethodInfo[] s_actions = Helpers("Action");
    private static readonly MethodInfo[] s_pairedFuncs = Helpers("PairedFunc");
    private static readonly MethodInfo[] s_pairedActions = Helpers("PairedAction");

    /// <summary>
    /// Measures <paramref name="method"/> on <paramref name="instance"/> with <paramref name="arguments"/> as its
    /// operation.
    /// </summary>
    /// <param name="options">The test's options.</param>
    /// <param name="method">The test method: no <see cref="PerfContext"/>, at most <see cref="MaxArguments"/> parameters.</param>
    /// <param name="instance">The test-class instance, or <see langword="null"/> for a static method.</param>
    /// <param name="arguments">The case's arguments, one per parameter.</param>
    /// <returns>The measurement.</returns>
    public static PerfResult Measure(PerfOptions options, MethodInfo method, object? instance, object?[] arguments)
    {
        (Type delegateType, MethodInfo helper) = Shape(method, s_funcs, s_actions);
        Delegate body = Bind(method, delegateType, instance);
        return Invoke<PerfResult>(method, helper, [options, body, arguments]);
    }

    /// <summary>
    /// Measures <paramref name="candidate"/> (the test method) against <paramref name="reference"/> in pairs, both bound
    /// to <paramref name="instance"/> with the same <paramref name="arguments"/>, named by their method names in the reports.
    /// </summary>
    /// <param name="options">The test's options; <see cref="PerfOptions.Samples"/> is the number of pairs.</param>
    /// <param name="reference">The reference method (<see cref="FindReference"/>): the candidate's parameters and return type.</param>
    /// <param name="candidate">The test method.</param>
    /// <param name="instance">The test-class instance, or <see langword="null"/> when both methods are static.</param>
    /// <param name="arguments">The case's arguments, one per parameter.</param>
    /// <returns>The comparison.</returns>
    /// <exception cref="PerfBodyException">A method threw on its first call; the message names the side and the method.</exception>
    public static PerfComparison Compare(
        PerfOptions options, MethodInfo reference, MethodInfo candidate, object? instance, object?[] arguments)
    {
        (Type delegateType, MethodInfo helper) = Shape(candidate, s_pairedFuncs, s_pairedActions);
        Delegate referenceBody = Bind(reference, delegateType, instance);
        Delegate candidateBody = Bind(candidate, delegateType, instance);
        return Invoke<PerfComparison>(
            candidate, helper, [options, referenceBody, candidateBody, arguments, reference.Name, candidate.Name]);
    }

    /// <summary>
    /// The method <c>Against</c> names as <paramref name="method"/>'s reference: of the same class (or a base), with the same
    /// parameter types and return type, not the test method itself.
    /// </summary>
    /// <param name="attribute">The attribute as written in messages, e.g. <c>[PerfFact]</c>.</param>
    /// <param name="method">The test method.</param>
    /// <param name="against">The name <c>Against</c> gives.</param>
    /// <returns>The reference method.</returns>
    /// <exception cref="PerfTestConfigurationException">
    /// The test takes a <see cref="PerfContext"/>, or no such method exists: the message names the test, the knob and the
    /// fix (the nearest names of the class, the parameters or return type to give).
    /// </exception>
    public static MethodInfo FindReference(string attribute, MethodInfo method, string against)
    {
        ArgumentNullException.ThrowIfNull(method);
        ArgumentNullException.ThrowIfNull(against);
        Type type = method.DeclaringType
            ?? throw new PerfTestConfigurationException(PerfTestMessages.NoClassForReference(attribute, method.Name, against));
        string prefix = $"{attribute} {type.Name}.{method.Name} Against = \"{against}\"";
        Type[] parameters = [.. method.GetParameters().Select(static p => p.ParameterType)];
        string signature = $"{TypeName(method.ReturnType)} ({string.Join(", ", parameters.Select(TypeName))})";

        if (PerfTestExecution.PerfContextIndex(method) >= 0)
        {
            throw new PerfTestConfigurationException(PerfTestMessages.AgainstWithContext(prefix, against));
        }

        const BindingFlags all = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static;
        MethodInfo[] methods = [.. type.GetMethods(all)
            .Where(static m => !m.IsSpecialName && m.DeclaringType != typeof(object) && !m.Name.Contains('<', StringComparison.Ordinal))];
        MethodInfo[] named = [.. methods.Where(m => m.Name == against)];
        if (named.Length == 0)
            throw new PerfTestConfigurationException(NotFound(prefix, type, method, against, methods, parameters, signature));

        MethodInfo? match = named.FirstOrDefault(m =>
            !m.IsGenericMethodDefinition && m.GetParameters().Select(static p => p.ParameterType).SequenceEqual(parameters));
        if (match is not null && match.MethodHandle == method.MethodHandle)
        {
            throw new PerfTestConfigurationException(PerfTestMessages.ReferenceIsTheTest(prefix, type.Name, signature));
        }

        if (match is null)
        {
            MethodInfo other = named[0];
            string? referenceParameters = other.IsGenericMethodDefinition ? null : Parameters(other);
            throw new PerfTestConfigurationException(
                PerfTestMessages.ReferenceParametersDiffer(prefix, type.Name, against, referenceParameters, Parameters(method)));
        }

        if (match.ReturnType != method.ReturnType)
        {
            throw new PerfTestConfigurationException(
                PerfTestMessages.ReferenceReturnsOther(
                    prefix, type.Name, against, TypeName(match.ReturnType), TypeName(method.ReturnType)));
        }

        return match;
    }

    // The delegate type of the test method's shape and the helper (one per arity and shape) made generic for it.
    private static (Type DelegateType, MethodInfo Helper) Shape(MethodInfo method, MethodInfo[] funcs, MethodInfo[] actions)
    {
        Type[] parameters = [.. method.GetParameters().Select(static p => p.ParameterType)];
        bool returns = method.ReturnType != typeof(void);
        Type delegateType = Expression.GetDelegateType([.. parameters, method.ReturnType]);
        MethodInfo helper = (returns ? funcs : actions)[parameters.Length];
        Type[] typeArguments = returns ? [.. parameters, method.ReturnType] : parameters;
        return (delegateType, typeArguments.Length > 0 ? helper.MakeGenericMethod(typeArguments) : helper);
    }

    private static Delegate Bind(MethodInfo method, Type delegateType, object? instance) =>
        method.IsStatic ? method.CreateDelegate(delegateType) : method.CreateDelegate(delegateType, instance);

    private static T Invoke<T>(MethodInfo method, MethodInfo helper, object?[] helperArguments)
    {
        try
        {
            return (T)helper.Invoke(null, BindingFlags.DoNotWrapExceptions, null, helperArguments, null)!;
        }
        catch (InvalidCastException e)
        {
            IEnumerable<string> types = method.GetParameters().Select(static p => p.ParameterType.Name);
            throw new PerfTestConfigurationException(PerfTestMessages.DataDoesNotFit(method.Name, types, e.Message), e);
        }
    }

    // No method of that name: the nearest names of the class, else the methods that have the test's signature, else how to
    // write one.
    private static string NotFound(
        string prefix, Type type, MethodInfo method, string against, MethodInfo[] methods, Type[] parameters, string signature)
    {
        string[] near = [.. methods.Select(static m => m.Name).Where(n => n != method.Name).Distinct(StringComparer.Ordinal)
            .Select(n => (Name: n, Distance: PerfEventSuggestions.EditDistance(against, n)))
            .Where(n => n.Distance <= Math.Max(2, against.Length / 3))
            .OrderBy(static n => n.Distance).ThenBy(static n => n.Name, StringComparer.Ordinal)
            .Take(MaxSuggestions).Select(static n => n.Name)];
        string[] fitting = [.. methods
            .Where(m => m.MethodHandle != method.MethodHandle && !m.IsGenericMethodDefinition && m.ReturnType == method.ReturnType
                && m.GetParameters().Select(static p => p.ParameterType).SequenceEqual(parameters))
            .Select(static m => m.Name).Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal)];
        if (near.Length > 0)
            return PerfTestMessages.ReferenceMisspelt(prefix, type.Name, against, signature, near);
        if (fitting.Length > 0)
            return PerfTestMessages.ReferenceNotAmong(prefix, type.Name, against, signature, fitting);
        return PerfTestMessages.ReferenceMissing(prefix, type.Name, against, signature, TypeName(method.ReturnType), Parameters(method));
    }

    private static string Parameters(MethodInfo method) =>
        string.Join(", ", method.GetParameters().Select(static p => $"{TypeName(p.ParameterType)} {p.Name}"));

    // C#'s spelling of a type in messages: long, string[], List<int>, not Int64.
    private static string TypeName(Type type)
    {
        if (type.IsByRef)
            return "ref " + TypeName(type.GetElementType()!);
        if (type.IsArray)
            return TypeName(type.GetElementType()!) + "[" + new string(',', type.GetArrayRank() - 1) + "]";
        if (Nullable.GetUnderlyingType(type) is { } underlying)
            return TypeName(underlying) + "?";
        if (type.IsGenericType)
        {
            string generic = type.Name[..type.Name.IndexOf('`', StringComparison.Ordinal)];
            return $"{generic}<{string.Join(", ", type.GetGenericArguments().Select(TypeName))}>";
        }

        return Type.GetTypeCode(type) switch
        {
            TypeCode.Boolean => "bool",
            TypeCode.Byte => "byte",
            TypeCode.SByte => "sbyte",
            TypeCode.Char => "char",
            TypeCode.Int16 => "short",
            TypeCode.UInt16 => "ushort",
            TypeCode.Int32 => "int",
            TypeCode.UInt32 => "uint",
            TypeCode.Int64 => "long",
            TypeCode.UInt64 => "ulong",
            TypeCode.Single => "float",
            TypeCode.Double => "double",
            TypeCode.Decimal => "decimal",
            TypeCode.String => "string",
            _ when type == typeof(void) => "void",
            _ when type == typeof(object) => "object",
            _ => type.Name,
        };
    }

    private static MethodInfo[] Helpers(string kind) =>
        [.. Enumerable.Range(0, MaxArguments + 1).Select(n => typeof(OperationBinder)
            .GetMethod(kind + n.ToString(CultureInfo.InvariantCulture), BindingFlags.NonPublic | BindingFlags.Static)!)];

    // One helper per arity and shape, called once per test through MakeGenericMethod: the loops they reach are generic
    // over the delegate's exact type, so the per-call path has no reflection, boxing or allocation.
    private static PerfResult Func0<TResult>(PerfOptions options, Delegate body, object?[] a) =>
        Perf.Measure(options, (Func<TResult>)body);

    private static PerfResult Func1<T1, TResult>(PerfOptions options, Delegate body, object?[] a) =>
        Perf.Measure(options, (T1)a[0]!, (Func<T1, TResult>)body);

    private static PerfResult Func2<T1, T2, TResult>(PerfOptions options, Delegate body, object?[] a) =>
        Perf.Measure(options, ((Func<T1, T2, TResult>)body, (T1)a[0]!, (T2)a[1]!), static s => s.Item1(s.Item2, s.Item3));

    private static PerfResult Func3<T1, T2, T3, TResult>(PerfOptions options, Delegate body, object?[] a) =>
        Perf.Measure(
            options, ((Func<T1, T2, T3, TResult>)body, (T1)a[0]!, (T2)a[1]!, (T3)a[2]!), static s => s.Item1(s.Item2, s.Item3, s.Item4));

    private static PerfResult Action0(PerfOptions options, Delegate body, object?[] a) =>
        Perf.Measure(options, (Action)body);

    private static PerfResult Action1<T1>(PerfOptions options, Delegate body, object?[] a) =>
        Perf.Measure(options, (T1)a[0]!, (Action<T1>)body);

    private static PerfResult Action2<T1, T2>(PerfOptions options, Delegate body, object?[] a) =>
        Perf.Measure(options, ((Action<T1, T2>)body, (T1)a[0]!, (T2)a[1]!), static s => s.Item1(s.Item2, s.Item3));

    private static PerfResult Action3<T1, T2, T3>(PerfOptions options, Delegate body, object?[] a) =>
        Perf.Measure(
            options, ((Action<T1, T2, T3>)body, (T1)a[0]!, (T2)a[1]!, (T3)a[2]!), static s => s.Item1(s.Item2, s.Item3, s.Item4));

    // The same shapes paired: both sides in the same loop type, so the engine runs them through the same code.
    private static PerfComparison PairedFunc0<TResult>(
        PerfOptions options, Delegate reference, Delegate candidate, object?[] a, string referenceName, string candidateName) =>
        Perf.Paired(
            options,
            new FuncLoop<TResult>((Func<TResult>)reference),
            new FuncLoop<TResult>(static () => default!),
            new FuncLoop<TResult>((Func<TResult>)candidate),
            new FuncLoop<TResult>(static () => default!),
            referenceName,
            candidateName);

    private static PerfComparison PairedFunc1<T1, TResult>(
        PerfOptions options, Delegate reference, Delegate candidate, object?[] a, string referenceName, string candidateName) =>
        Perf.Paired(
            options,
            new StateFuncLoop<T1, TResult>((T1)a[0]!, (Func<T1, TResult>)reference),
            new StateFuncLoop<T1, TResult>((T1)a[0]!, static _ => default!),
            new StateFuncLoop<T1, TResult>((T1)a[0]!, (Func<T1, TResult>)candidate),
            new StateFuncLoop<T1, TResult>((T1)a[0]!, static _ => default!),
            referenceName,
            candidateName);

    private static PerfComparison PairedFunc2<T1, T2, TResult>(
        PerfOptions options, Delegate reference, Delegate candidate, object?[] a, string referenceName, string candidateName)
    {
        (Func<T1, T2, TResult>, T1, T2) r = ((Func<T1, T2, TResult>)reference, (T1)a[0]!, (T2)a[1]!);
        (Func<T1, T2, TResult>, T1, T2) c = ((Func<T1, T2, TResult>)candidate, (T1)a[0]!, (T2)a[1]!);
        return Perf.Paired(
            options,
            new StateFuncLoop<(Func<T1, T2, TResult>, T1, T2), TResult>(r, static s => s.Item1(s.Item2, s.Item3)),
            new StateFuncLoop<(Func<T1, T2, TResult>, T1, T2), TResult>(r, static _ => default!),
            new StateFuncLoop<(Func<T1, T2, TResult>, T1, T2), TResult>(c, static s => s.Item1(s.Item2, s.Item3)),
            new StateFuncLoop<(Func<T1, T2, TResult>, T1, T2), TResult>(c, static _ => default!),
            referenceName,
            candidateName);
    }

    private static PerfComparison PairedFunc3<T1, T2, T3, TResult>(
        PerfOptions options, Delegate reference, Delegate candidate, object?[] a, string referenceName, string candidateName)
    {
        (Func<T1, T2, T3, TResult>, T1, T2, T3) r = ((Func<T1, T2, T3, TResult>)reference, (T1)a[0]!, (T2)a[1]!, (T3)a[2]!);
        (Func<T1, T2, T3, TResult>, T1, T2, T3) c = ((Func<T1, T2, T3, TResult>)candidate, (T1)a[0]!, (T2)a[1]!, (T3)a[2]!);
        return Perf.Paired(
            options,
            new StateFuncLoop<(Func<T1, T2, T3, TResult>, T1, T2, T3), TResult>(r, static s => s.Item1(s.Item2, s.Item3, s.Item4)),
            new StateFuncLoop<(Func<T1, T2, T3, TResult>, T1, T2, T3), TResult>(r, static _ => default!),
            new StateFuncLoop<(Func<T1, T2, T3, TResult>, T1, T2, T3), TResult>(c, static s => s.Item1(s.Item2, s.Item3, s.Item4)),
            new StateFuncLoop<(Func<T1, T2, T3, TResult>, T1, T2, T3), TResult>(c, static _ => default!),
            referenceName,
            candidateName);
    }

    private static PerfComparison PairedAction0(
        PerfOptions options, Delegate reference, Delegate candidate, object?[] a, string referenceName, string candidateName) =>
        Perf.Paired(
            options,
            new ActionLoop((Action)reference),
            new ActionLoop(static () => { }),
            new ActionLoop((Action)candidate),
            new ActionLoop(static () => { }),
            referenceName,
            candidateName);

    private static PerfComparison PairedAction1<T1>(
        PerfOptions options, Delegate reference, Delegate candidate, object?[] a, string referenceName, string candidateName) =>
        Perf.Paired(
            options,
            new StateActionLoop<T1>((T1)a[0]!, (Action<T1>)reference),
            new StateActionLoop<T1>((T1)a[0]!, static _ => { }),
            new StateActionLoop<T1>((T1)a[0]!, (Action<T1>)candidate),
            new StateActionLoop<T1>((T1)a[0]!, static _ => { }),
            referenceName,
            candidateName);

    private static PerfComparison PairedAction2<T1, T2>(
        PerfOptions options, Delegate reference, Delegate candidate, object?[] a, string referenceName, string candidateName)
    {
        (Action<T1, T2>, T1, T2) r = ((Action<T1, T2>)reference, (T1)a[0]!, (T2)a[1]!);
        (Action<T1, T2>, T1, T2) c = ((Action<T1, T2>)candidate, (T1)a[0]!, (T2)a[1]!);
        return Perf.Paired(
            options,
            new StateActionLoop<(Action<T1, T2>, T1, T2)>(r, static s => s.Item1(s.Item2, s.Item3)),
            new StateActionLoop<(Action<T1, T2>, T1, T2)>(r, static _ => { }),
            new StateActionLoop<(Action<T1, T2>, T1, T2)>(c, static s => s.Item1(s.Item2, s.Item3)),
            new StateActionLoop<(Action<T1, T2>, T1, T2)>(c, static _ => { }),
            referenceName,
            candidateName);
    }

    private static PerfComparison PairedAction3<T1, T2, T3>(
        PerfOptions options, Delegate reference, Delegate candidate, object?[] a, string referenceName, string candidateName)
    {
        (Action<T1, T2, T3>, T1, T2, T3) r = ((Action<T1, T2, T3>)reference, (T1)a[0]!, (T2)a[1]!, (T3)a[2]!);
        (Action<T1, T2, T3>, T1, T2, T3) c = ((Action<T1, T2, T3>)candidate, (T1)a[0]!, (T2)a[1]!, (T3)a[2]!);
        return Perf.Paired(
            options,
            new StateActionLoop<(Action<T1, T2, T3>, T1, T2, T3)>(r, static s => s.Item1(s.Item2, s.Item3, s.Item4)),
            new StateActionLoop<(Action<T1, T2, T3>, T1, T2, T3)>(r, static _ => { }),
            new StateActionLoop<(Action<T1, T2, T3>, T1, T2, T3)>(c, static s => s.Item1(s.Item2, s.Item3, s.Item4)),
            new StateActionLoop<(Action<T1, T2, T3>, T1, T2, T3)>(c, static _ => { }),
            referenceName,
            candidateName);
    }
}
