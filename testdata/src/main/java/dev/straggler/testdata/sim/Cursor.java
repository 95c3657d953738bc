package dev.straggler.testdata.sim;

import java.util.Arrays;

/**
 * Where a rank, or a thread of its OpenMP team, is in its program body: the stack of statements being executed, with
 * how far each got. It steps through the control statements, which run alike everywhere (sequences, loops with their
 * iteration counters, conditionals, evaluated in the executing context); the executor runs the other statements,
 * each left on top of the stack until it pops it ({@link #pop}), with one bit of progress for statements it enters
 * and returns to ({@link #started}, {@link #start}).
 */
final class Cursor {
    private Node[] stack = new Node[16];
    private int[] pos = new int[16];
    private int sp;
    private int[] loopIter = new int[4];
    private int[] loopCount = new int[4];
    private int loopDepth;

    /** Starts over at {@code body}, outside any loop. */
    void reset(Node body) {
        sp = 0;
        loopDepth = 0;
        push(body);
    }

    void push(Node n) {
        if (sp == stack.length) {
            stack = Arrays.copyOf(stack, sp * 2);
            pos = Arrays.copyOf(pos, sp * 2);
        }
        stack[sp] = n;
        pos[sp] = 0;
        sp++;
    }

    /** Removes the statement on top, which has been executed. */
    void pop() {
        sp--;
    }

    /** True when the statement on top was entered before (its body now done). */
    boolean started() {
        return pos[sp - 1] != 0;
    }

    /** Marks the statement on top as entered. */
    void start() {
        pos[sp - 1] = 1;
    }

    /**
     * Steps through sequences, loops and conditionals to the next other statement, which stays on top of the stack;
     * null when the body has ended. Loop counts and conditions are evaluated in {@code ctx}.
     */
    Node next(Ctx ctx) {
        while (sp > 0) {
            int top = sp - 1;
            Node n = stack[top];
            switch (n.kind) {
                case Node.SEQ -> {
                    Node.Seq s = (Node.Seq) n;
                    int p = pos[top];
                    if (p < s.children.length) {
                        pos[top] = p + 1;
                        push(s.children[p]);
                    } else {
                        sp--;
                    }
                }
                case Node.LOOP -> {
                    Node.Loop l = (Node.Loop) n;
                    if (pos[top] == 0) {
                        pos[top] = 1;
                        if (loopDepth == loopIter.length) {
                            loopIter = Arrays.copyOf(loopIter, loopDepth * 2);
                            loopCount = Arrays.copyOf(loopCount, loopDepth * 2);
                        }
                        loopCount[loopDepth] = l.count.applyAsInt(ctx);
                        loopIter[loopDepth] = 0;
                        loopDepth++;
                    } else {
                        loopIter[loopDepth - 1]++;
                    }
                    if (loopIter[loopDepth - 1] < loopCount[loopDepth - 1]) {
                        push(l.body);
                    } else {
                        loopDepth--;
                        sp--;
                    }
                }
                case Node.IF -> {
                    Node.If f = (Node.If) n;
                    if (pos[top] == 0) {
                        pos[top] = 1;
                        Node b = f.test.test(ctx) ? f.then : f.otherwise;
                        if (b != null) {
                            push(b);
                        }
                    } else {
                        sp--;
                    }
                }
                default -> {
                    return n;
                }
            }
        }
        return null;
    }

    /** The number of loops the cursor is in. */
    int loopDepth() {
        return loopDepth;
    }

    /** The current iteration of the loop at nesting depth {@code depth} (0 = outermost; 0 ≤ depth < loopDepth). */
    int iteration(int depth) {
        return loopIter[depth];
    }
}
