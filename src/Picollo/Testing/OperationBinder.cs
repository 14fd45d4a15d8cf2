using System.Linq.Expressions;
using System.Reflection;
using Picollo.Measurement;

namespace Picollo.Testing;

/// <summary>
/// Measures a test method as the operation: the method is turned once into a delegate bound to the test-class instance,
/// with the theory case's arguments bound once too, and measured through <see cref="Perf"/>'s allocation-free loops: no
/// reflection and no allocation per call. With no argument or one, the measured delegate is the method itself, so the
/// warmup watches the test method's own JIT tier; with two or three, a small static lambda passes them from a tuple.
/// </summary>
internal static class OperationBinder
{
    /// <summary>The most theory arguments a body-as-operation test can take.</summary>
    public const int MaxArguments = 3;

    private static readonly MethodInfo[] s_funcs = Helpers("Func");
    private static readonly MethodInfo[] s_actions = Helpers("Action");

    /// <summary>Measures <paramref name="method"/> on <paramref name="instance"/> with <paramref name="arguments"/> as its operation.</summary>
    /// <param name="options">The test's options.</param>
    /// <param name="method">The test method: no <see cref="PerfContext"/>, at most <see cref="MaxArguments"/> parameters.</param>
    /// <param name="instance">The test-class instance, or <see langword="null"/> for a static method.</param>
    /// <param name="arguments">The case's arguments, one per parameter.</param>
    /// <returns>The measurement.</returns>
    public static PerfResult Measure(PerfOptions options, MethodInfo method, object? instance, object?[] arguments)
    {
        Type[] parameters = [.. method.GetParameters().Select(static p => p.ParameterType)];
        bool returns = method.ReturnType != typeof(void);
        Type delegateType = Expression.GetDelegateType([.. parameters, method.ReturnType]);
        Delegate body = method.IsStatic ? method.CreateDelegate(delegateType) : method.CreateDelegate(delegateType, instance);
        MethodInfo helper = (returns ? s_funcs : s_actions)[parameters.Length];
        Type[] typeArguments = returns ? [.. parameters, method.ReturnType] : parameters;
        if (typeArguments.Length > 0)
            helper = helper.MakeGenericMethod(typeArguments);

        try
        {
            return (PerfResult)helper.Invoke(null, BindingFlags.DoNotWrapExceptions, null, [options, body, arguments], null)!;
        }
        catch (InvalidCastException e)
        {
            throw new PerfTestConfigurationException($"{method.Name}: the case's data does not fit the method's parameters ({string.Join(", ", parameters.Select(static t => t.Name))}): {e.Message}", e);
        }
    }

    private static MethodInfo[] Helpers(string kind) =>
        [.. Enumerable.Range(0, MaxArguments + 1).Select(n => typeof(OperationBinder).GetMethod(kind + n, BindingFlags.NonPublic | BindingFlags.Static)!)];

    // One helper per arity and shape, called once per test through MakeGenericMethod: the loops they reach are generic
    // over the delegate's exact type, so the per-call path has no reflection, boxing or allocation.
    private static PerfResult Func0<TResult>(PerfOptions options, Delegate body, object?[] a) =>
        Perf.Measure(options, (Func<TResult>)body);

    private static PerfResult Func1<T1, TResult>(PerfOptions options, Delegate body, object?[] a) =>
        Perf.Measure(options, (T1)a[0]!, (Func<T1, TResult>)body);

    private static PerfResult Func2<T1, T2, TResult>(PerfOptions options, Delegate body, object?[] a) =>
        Perf.Measure(options, ((Func<T1, T2, TResult>)body, (T1)a[0]!, (T2)a[1]!), static s => s.Item1(s.Item2, s.Item3));

    private static PerfResult Func3<T1, T2, T3, TResult>(PerfOptions options, Delegate body, object?[] a) =>
        Perf.Measure(options, ((Func<T1, T2, T3, TResult>)body, (T1)a[0]!, (T2)a[1]!, (T3)a[2]!), static s => s.Item1(s.Item2, s.Item3, s.Item4));

    private static PerfResult Action0(PerfOptions options, Delegate body, object?[] a) =>
        Perf.Measure(options, (Action)body);

    private static PerfResult Action1<T1>(PerfOptions options, Delegate body, object?[] a) =>
        Perf.Measure(options, (T1)a[0]!, (Action<T1>)body);

    private static PerfResult Action2<T1, T2>(PerfOptions options, Delegate body, object?[] a) =>
        Perf.Measure(options, ((Action<T1, T2>)body, (T1)a[0]!, (T2)a[1]!), static s => s.Item1(s.Item2, s.Item3));

    private static PerfResult Action3<T1, T2, T3>(PerfOptions options, Delegate body, object?[] a) =>
        Perf.Measure(options, ((Action<T1, T2, T3>)body, (T1)a[0]!, (T2)a[1]!, (T3)a[2]!), static s => s.Item1(s.Item2, s.Item3, s.Item4));
}
