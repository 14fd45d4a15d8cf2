using System.Reflection;
using System.Runtime.CompilerServices;

namespace Picollo.Measurement;

/// <summary>Runs the measured body a given number of times: the inner loop of one sample.</summary>
/// <remarks>
/// Implemented by structs so the engine is specialized per body shape: the loop is a direct call, only the body is a
/// delegate call. Each loop is compiled fully optimized at once (<see cref="MethodImplOptions.AggressiveOptimization"/>):
/// no tier-0 loop, no OSR switch mid-run, and no PGO-guided devirtualization that would inline the real body but not the
/// calibration's empty one, so the calibration measures exactly the loop and call the samples pay.
/// </remarks>
internal interface IOperationLoop
{
    /// <summary>The body delegate's method, whose tier the warmup watches.</summary>
    MethodInfo Method { get; }

    /// <summary>Invokes the body <paramref name="count"/> times.</summary>
    void Run(long count);
}

/// <summary>Holds the last result of a <see cref="Func{TResult}"/> body.</summary>
/// <remarks>
/// A store to a static field is a side effect other threads can observe, so the JIT must perform the call and keep its
/// result. The field cannot be declared <see langword="volatile"/> for an unconstrained <typeparamref name="T"/>; it does
/// not need to be: the store is never removed, only its ordering would be relaxed, which does not matter here.
/// </remarks>
internal static class ResultSink<T>
{
    internal static T? Value;
}

/// <summary>An <see cref="Action"/> body.</summary>
internal readonly struct ActionLoop(Action body) : IOperationLoop
{
    public MethodInfo Method => body.Method;

    [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.AggressiveOptimization)]
    public void Run(long count)
    {
        Action action = body;
        for (long i = 0; i < count; i++)
            action();
    }
}

/// <summary>A <see cref="Func{TResult}"/> body whose every result is consumed.</summary>
internal readonly struct FuncLoop<TResult>(Func<TResult> body) : IOperationLoop
{
    public MethodInfo Method => body.Method;

    [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.AggressiveOptimization)]
    public void Run(long count)
    {
        Func<TResult> func = body;
        for (long i = 0; i < count; i++)
            ResultSink<TResult>.Value = func();
    }
}

/// <summary>An <see cref="Action{T}"/> body with its state, so a <see langword="static"/> lambda captures nothing.</summary>
internal readonly struct StateActionLoop<TState>(TState state, Action<TState> body) : IOperationLoop
{
    public MethodInfo Method => body.Method;

    [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.AggressiveOptimization)]
    public void Run(long count)
    {
        Action<TState> action = body;
        TState s = state;
        for (long i = 0; i < count; i++)
            action(s);
    }
}

/// <summary>A <see cref="Func{T, TResult}"/> body with its state; every result is consumed.</summary>
internal readonly struct StateFuncLoop<TState, TResult>(TState state, Func<TState, TResult> body) : IOperationLoop
{
    public MethodInfo Method => body.Method;

    [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.AggressiveOptimization)]
    public void Run(long count)
    {
        Func<TState, TResult> func = body;
        TState s = state;
        for (long i = 0; i < count; i++)
            ResultSink<TResult>.Value = func(s);
    }
}
