//! Go's `sort.Slice` (pattern-defeating quicksort, as in Go 1.21 and later), step for
//! step. opm sorts channel entries with it, and the order it leaves equal elements in
//! is visible in `render-graph` output; a stable sort would print ties differently.

/// Sorts `items` exactly as Go's `sort.Slice(items, less)` would.
pub(crate) fn sort_slice<T>(items: &mut [T], less: impl FnMut(&T, &T) -> bool) {
    let length = items.len();
    let mut data = Data { items, less };
    pdqsort(&mut data, 0, length, bits_len(length));
}

/// Go's `bits.Len`: the number of bits needed to represent `value`.
fn bits_len(value: usize) -> u32 {
    usize::BITS - value.leading_zeros()
}

struct Data<'a, T, F> {
    items: &'a mut [T],
    less: F,
}

impl<T, F: FnMut(&T, &T) -> bool> Data<'_, T, F> {
    fn less(&mut self, i: usize, j: usize) -> bool {
        (self.less)(&self.items[i], &self.items[j])
    }

    fn swap(&mut self, i: usize, j: usize) {
        self.items.swap(i, j);
    }
}

#[derive(PartialEq, Eq)]
enum Hint {
    Unknown,
    Increasing,
    Decreasing,
}

fn insertion_sort<T, F: FnMut(&T, &T) -> bool>(data: &mut Data<T, F>, a: usize, b: usize) {
    for i in a + 1..b {
        let mut j = i;
        while j > a && data.less(j, j - 1) {
            data.swap(j, j - 1);
            j -= 1;
        }
    }
}

fn sift_down<T, F: FnMut(&T, &T) -> bool>(
    data: &mut Data<T, F>,
    lo: usize,
    hi: usize,
    first: usize,
) {
    let mut root = lo;
    loop {
        let mut child = 2 * root + 1;
        if child >= hi {
            return;
        }
        if child + 1 < hi && data.less(first + child, first + child + 1) {
            child += 1;
        }
        if !data.less(first + root, first + child) {
            return;
        }
        data.swap(first + root, first + child);
        root = child;
    }
}

fn heap_sort<T, F: FnMut(&T, &T) -> bool>(data: &mut Data<T, F>, a: usize, b: usize) {
    let hi = b - a;
    for i in (0..=(hi.saturating_sub(1)) / 2).rev() {
        sift_down(data, i, hi, a);
    }
    for i in (0..hi).rev() {
        data.swap(a, a + i);
        sift_down(data, 0, i, a);
    }
}

/// `limit` is how many unbalanced partitions are allowed before falling back to heapsort.
fn pdqsort<T, F: FnMut(&T, &T) -> bool>(
    data: &mut Data<T, F>,
    mut a: usize,
    mut b: usize,
    mut limit: u32,
) {
    const MAX_INSERTION: usize = 12;
    let mut was_balanced = true;
    let mut was_partitioned = true;
    loop {
        let length = b - a;
        if length <= MAX_INSERTION {
            insertion_sort(data, a, b);
            return;
        }
        if limit == 0 {
            heap_sort(data, a, b);
            return;
        }
        if !was_balanced {
            break_patterns(data, a, b);
            limit -= 1;
        }
        let (mut pivot, mut hint) = choose_pivot(data, a, b);
        if hint == Hint::Decreasing {
            reverse_range(data, a, b);
            pivot = (b - 1) - (pivot - a);
            hint = Hint::Increasing;
        }
        if was_balanced
            && was_partitioned
            && hint == Hint::Increasing
            && partial_insertion_sort(data, a, b)
        {
            return;
        }
        if a > 0 && !data.less(a - 1, pivot) {
            a = partition_equal(data, a, b, pivot);
            continue;
        }
        let (mid, already_partitioned) = partition(data, a, b, pivot);
        was_partitioned = already_partitioned;
        let (left, right) = (mid - a, b - mid);
        let balance_threshold = length / 8;
        if left < right {
            was_balanced = left >= balance_threshold;
            pdqsort(data, a, mid, limit);
            a = mid + 1;
        } else {
            was_balanced = right >= balance_threshold;
            pdqsort(data, mid + 1, b, limit);
            b = mid;
        }
    }
}

fn partition<T, F: FnMut(&T, &T) -> bool>(
    data: &mut Data<T, F>,
    a: usize,
    b: usize,
    pivot: usize,
) -> (usize, bool) {
    data.swap(a, pivot);
    // Go keeps inclusive bounds `i` and `j`; `hi` is `j + 1`, so that it never
    // goes below zero (`j` stops at `a` at the lowest).
    let (mut i, mut hi) = (a + 1, b);
    while i < hi && data.less(i, a) {
        i += 1;
    }
    while i < hi && !data.less(hi - 1, a) {
        hi -= 1;
    }
    if i >= hi {
        data.swap(hi - 1, a);
        return (hi - 1, true);
    }
    data.swap(i, hi - 1);
    i += 1;
    hi -= 1;
    loop {
        while i < hi && data.less(i, a) {
            i += 1;
        }
        while i < hi && !data.less(hi - 1, a) {
            hi -= 1;
        }
        if i >= hi {
            break;
        }
        data.swap(i, hi - 1);
        i += 1;
        hi -= 1;
    }
    data.swap(hi - 1, a);
    (hi - 1, false)
}

fn partition_equal<T, F: FnMut(&T, &T) -> bool>(
    data: &mut Data<T, F>,
    a: usize,
    b: usize,
    pivot: usize,
) -> usize {
    data.swap(a, pivot);
    // As in `partition`, `hi` is Go's inclusive `j` plus one.
    let (mut i, mut hi) = (a + 1, b);
    loop {
        while i < hi && !data.less(a, i) {
            i += 1;
        }
        while i < hi && data.less(a, hi - 1) {
            hi -= 1;
        }
        if i >= hi {
            return i;
        }
        data.swap(i, hi - 1);
        i += 1;
        hi -= 1;
    }
}

fn partial_insertion_sort<T, F: FnMut(&T, &T) -> bool>(
    data: &mut Data<T, F>,
    a: usize,
    b: usize,
) -> bool {
    const MAX_STEPS: usize = 5;
    const SHORTEST_SHIFTING: usize = 50;
    let mut i = a + 1;
    for _ in 0..MAX_STEPS {
        while i < b && !data.less(i, i - 1) {
            i += 1;
        }
        if i == b {
            return true;
        }
        if b - a < SHORTEST_SHIFTING {
            return false;
        }
        data.swap(i, i - 1);
        if i - a >= 2 {
            // Go walks down to index 1, not to `a + 1`: kept as Go has it.
            let mut j = i - 1;
            while j >= 1 && data.less(j, j - 1) {
                data.swap(j, j - 1);
                j -= 1;
            }
        }
        if b - i >= 2 {
            let mut j = i + 1;
            while j < b && data.less(j, j - 1) {
                data.swap(j, j - 1);
                j += 1;
            }
        }
    }
    false
}

fn break_patterns<T, F: FnMut(&T, &T) -> bool>(data: &mut Data<T, F>, a: usize, b: usize) {
    let length = b - a;
    if length < 8 {
        return;
    }
    let mut random = length as u64;
    let modulus = 1usize << bits_len(length);
    let middle = a + (length / 4) * 2;
    for index in middle - 1..=middle + 1 {
        random ^= random << 13;
        random ^= random >> 7;
        random ^= random << 17;
        // Go converts to `uint` (64 bits here) before masking.
        let mut other = (random as usize) & (modulus - 1);
        if other >= length {
            other -= length;
        }
        data.swap(index, a + other);
    }
}

// Go's single-letter names are kept, to read side by side with `sort/zsortfunc.go`.
#[allow(clippy::many_single_char_names)]
fn choose_pivot<T, F: FnMut(&T, &T) -> bool>(
    data: &mut Data<T, F>,
    a: usize,
    b: usize,
) -> (usize, Hint) {
    const SHORTEST_NINTHER: usize = 50;
    const MAX_SWAPS: usize = 4 * 3;
    let length = b - a;
    let mut swaps = 0;
    let mut i = a + length / 4;
    let mut j = a + length / 4 * 2;
    let mut k = a + length / 4 * 3;
    if length >= 8 {
        if length >= SHORTEST_NINTHER {
            i = median(data, i - 1, i, i + 1, &mut swaps);
            j = median(data, j - 1, j, j + 1, &mut swaps);
            k = median(data, k - 1, k, k + 1, &mut swaps);
        }
        j = median(data, i, j, k, &mut swaps);
    }
    let hint = match swaps {
        0 => Hint::Increasing,
        MAX_SWAPS => Hint::Decreasing,
        _ => Hint::Unknown,
    };
    (j, hint)
}

fn order2<T, F: FnMut(&T, &T) -> bool>(
    data: &mut Data<T, F>,
    a: usize,
    b: usize,
    swaps: &mut usize,
) -> (usize, usize) {
    if data.less(b, a) {
        *swaps += 1;
        (b, a)
    } else {
        (a, b)
    }
}

fn median<T, F: FnMut(&T, &T) -> bool>(
    data: &mut Data<T, F>,
    a: usize,
    b: usize,
    c: usize,
    swaps: &mut usize,
) -> usize {
    let (a, b) = order2(data, a, b, swaps);
    let (b, c) = order2(data, b, c, swaps);
    let (_, b) = order2(data, a, b, swaps);
    let _ = c;
    b
}

fn reverse_range<T, F: FnMut(&T, &T) -> bool>(data: &mut Data<T, F>, a: usize, b: usize) {
    data.items[a..b].reverse();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sorts pairs by their first element only and returns the second elements, to
    /// see where ties end up.
    fn tie_order(keys: &[u32]) -> Vec<usize> {
        let mut items: Vec<(u32, usize)> = keys.iter().copied().zip(0..).collect();
        sort_slice(&mut items, |x, y| x.0 < y.0);
        items.into_iter().map(|(_, index)| index).collect()
    }

    #[test]
    fn sorts_like_a_sort() {
        let mut state = 7u64;
        for length in [0, 1, 2, 11, 12, 13, 49, 50, 51, 200, 1000] {
            let mut values: Vec<u64> = (0..length)
                .map(|_| {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1);
                    (state >> 33) % 17
                })
                .collect();
            let mut expected = values.clone();
            expected.sort_unstable();
            sort_slice(&mut values, |a, b| a < b);
            assert_eq!(values, expected, "length {length}");
        }
    }

    #[test]
    fn short_slices_are_sorted_stably_by_insertion() {
        assert_eq!(tie_order(&[1, 0, 1, 0]), vec![1, 3, 0, 2]);
    }

    #[test]
    fn long_slices_of_ties_are_reordered_as_go_does() {
        // Worked by hand from Go's algorithm: 13 equal keys get an "increasing"
        // pivot hint and the partial insertion sort finds them in order, so they
        // stay put; 20 keys alternating 1, 0 take the partition path, which does
        // not keep ties in their first order.
        assert_eq!(tie_order(&[5; 13]), (0..13).collect::<Vec<_>>());
        let alternating: Vec<u32> = (0..20).map(|index| 1 - index % 2).collect();
        let order = tie_order(&alternating);
        let zeros: Vec<usize> = order[..10].to_vec();
        assert!(zeros.iter().all(|index| index % 2 == 1));
        assert_ne!(
            zeros,
            (0..10).map(|index| 2 * index + 1).collect::<Vec<_>>()
        );
    }

    #[test]
    fn heap_sort_sorts() {
        let mut values = vec![5, 3, 9, 1, 7, 2, 8];
        let length = values.len();
        let mut data = Data {
            items: &mut values,
            less: |a: &i32, b: &i32| a < b,
        };
        heap_sort(&mut data, 0, length);
        assert_eq!(values, vec![1, 2, 3, 5, 7, 8, 9]);
    }
}
