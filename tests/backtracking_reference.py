"""Plain backtracking as gaqueens first shipped it, kept only as the reference that the
compiled search (gaqueens.baselines.backtracking_kernel) must match node for node: a bit mask
per row of the untried free columns and of the columns and diagonals attacked from above
(Python integers, O(N^2) bits in all, so only for small boards)."""


def search(n: int, budget: int) -> tuple[list[int], int]:
    """Depth-first search for the first solution; returns the columns of the rows placed (all
    n of them when solved) and the nodes spent, at most ``budget``."""
    full = (1 << n) - 1
    untried, columns = [full] + [0] * n, [0] * (n + 1)
    falling, rising = [0] * (n + 1), [0] * (n + 1)
    placed = [0] * n
    row = nodes = 0
    while row >= 0:
        free = untried[row]
        if not free:
            row -= 1
            continue
        if nodes == budget:
            break
        bit = free & -free  # the lowest free column
        untried[row] = free ^ bit
        placed[row] = bit
        nodes += 1
        if row == n - 1:
            row = n
            break
        c, f, r = columns[row] | bit, ((falling[row] | bit) << 1) & full, (rising[row] | bit) >> 1
        row += 1
        columns[row], falling[row], rising[row] = c, f, r
        untried[row] = full & ~(c | f | r)
    return [bit.bit_length() - 1 for bit in placed[:row]], nodes


def heuristic_search(attempt, limit: int) -> bool:
    """Heuristic backtracking's attempt as first shipped: a list per depth of the squares left
    to try (the last one first), O(N^2) memory; made on ``attempt`` (a
    gaqueens.baselines.backtracking_heuristic._Attempt) with its choices, place and lift."""
    stack = [attempt.choices()]
    placed: list[tuple[int, int]] = []
    while stack:
        if len(placed) == len(stack):
            attempt.lift(*placed.pop())
        if not stack[-1] or attempt.nodes >= limit:
            stack.pop()
            if attempt.nodes >= limit:
                return False
            continue
        square = stack[-1].pop()
        attempt.place(*square)
        placed.append(square)
        attempt.nodes += 1
        if len(placed) == attempt.n:
            return True
        if attempt.row_free.min() > 0 and attempt.column_free.min() > 0:
            stack.append(attempt.choices())
    return False
