//! A plain Bao implementation for the tests to hold the engine to. It shares no code with the
//! engine: the board is the 4x8 grid as South sees it (`grid[row][col]`, row 0 North's back row,
//! 1 North's front row, 2 South's front row, 3 South's back row), a player's sowing path is a
//! list of grid cells, the pit facing a front pit is the other front row's pit in the same
//! column, seeds are sown one at a time, and an endless move is found by remembering every state
//! (with a cap: the test stops if a move runs longer).
#![allow(dead_code)]

use std::collections::HashSet;

use granary_bao::{BaoRules, NyumbaRule, TakasiaRule, TaxRule};

pub type Cell = (usize, usize);

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct RefPos {
    pub grid: [[u32; 8]; 4],
    /// South, North.
    pub hands: [u32; 2],
    pub owned: [bool; 2],
    /// A cell the player to move may not lift.
    pub takasia: Option<Cell>,
    /// 0 South, 1 North.
    pub to_move: usize,
}

/// The player's 16 cells in clockwise order, from their left kichwa: the front row to the
/// player's right, then the back row back.
pub fn path(player: usize) -> Vec<Cell> {
    if player == 0 {
        (0..8)
            .map(|c| (2, c))
            .chain((0..8).rev().map(|c| (3, c)))
            .collect()
    } else {
        (0..8)
            .rev()
            .map(|c| (1, c))
            .chain((0..8).map(|c| (0, c)))
            .collect()
    }
}

fn front_row(player: usize) -> usize {
    if player == 0 { 2 } else { 1 }
}

pub fn nyumba(player: usize) -> Cell {
    if player == 0 { (2, 4) } else { (1, 3) }
}

/// The left and right kichwa, as the player sees them.
fn kichwas(player: usize) -> (Cell, Cell) {
    if player == 0 {
        ((2, 0), (2, 7))
    } else {
        ((1, 7), (1, 0))
    }
}

fn facing(cell: Cell) -> Cell {
    (3 - cell.0, cell.1)
}

fn is_front(player: usize, cell: Cell) -> bool {
    cell.0 == front_row(player)
}

/// Distance of a front cell from the player's left end (0..8).
fn from_left(player: usize, cell: Cell) -> usize {
    if player == 0 { cell.1 } else { 7 - cell.1 }
}

/// `+1` clockwise, `-1` anticlockwise along `path`.
fn next(player: usize, cell: Cell, dir: i32) -> Cell {
    let p = path(player);
    let i = p.iter().position(|&c| c == cell).unwrap() as i32;
    p[((i + dir).rem_euclid(16)) as usize]
}

fn functional(rules: &BaoRules, pos: &RefPos, player: usize) -> bool {
    let (r, c) = nyumba(player);
    rules.has_nyumba() && pos.owned[player] && pos.grid[r][c] >= 6
}

/// A move as the engine writes it: text of the start cell, letter, stop.
pub fn text(player: usize, cell: Cell, letter: Option<char>, stop: bool) -> String {
    let (row, number) = if is_front(player, cell) {
        ('A', from_left(player, cell) + 1)
    } else if player == 0 {
        ('B', cell.1 + 1)
    } else {
        ('B', 8 - cell.1)
    };
    let row = if player == 1 {
        row.to_ascii_lowercase()
    } else {
        row
    };
    let mut t = format!("{row}{number}");
    if let Some(l) = letter {
        t.push(l);
    }
    if stop {
        t.push('s');
    }
    t
}

/// The letter of a sowing from `cell` in `dir`, as the player sees the row: right on the
/// front row is clockwise, on the back row anticlockwise.
fn letter(player: usize, cell: Cell, dir: i32) -> char {
    let right = if is_front(player, cell) {
        dir == 1
    } else {
        dir == -1
    };
    if right { 'R' } else { 'L' }
}

struct Turn<'a> {
    rules: &'a BaoRules,
    pos: RefPos,
    me: usize,
    at: Cell,
    dir: i32,
    capturing: bool,
    mtaji: bool,
    seen: HashSet<(RefPos, Cell, i32)>,
}

const CAP: usize = 200_000;

impl Turn<'_> {
    fn sow(&mut self, first: Cell, dir: i32, n: u32) {
        let mut cell = first;
        for k in 0..n {
            if k > 0 {
                cell = next(self.me, cell, dir);
            }
            self.pos.grid[cell.0][cell.1] += 1;
        }
        self.at = cell;
        self.dir = dir;
    }

    fn lift(&mut self, cell: Cell, n: Option<u32>) -> u32 {
        let all = self.pos.grid[cell.0][cell.1];
        let n = n.unwrap_or(all);
        self.pos.grid[cell.0][cell.1] -= n;
        if cell == nyumba(self.me) && n == all {
            self.pos.owned[self.me] = false;
        }
        n
    }

    /// Captures the pit facing `self.at` into the kichwa given; true if that empties the
    /// opponent's front row.
    fn capture(&mut self, kichwa: Cell, dir: i32) -> bool {
        let f = facing(self.at);
        let seeds = std::mem::take(&mut self.pos.grid[f.0][f.1]);
        if f == nyumba(1 - self.me) {
            self.pos.owned[1 - self.me] = false;
        }
        self.seen.clear();
        self.sow(kichwa, dir, seeds);
        self.pos.grid[front_row(1 - self.me)]
            .iter()
            .all(|&s| s == 0)
    }

    fn forced(&self) -> (Cell, i32) {
        let (left, right) = kichwas(self.me);
        match from_left(self.me, self.at) {
            0 | 1 => (left, 1),
            6 | 7 => (right, -1),
            _ if self.dir == 1 => (left, 1),
            _ => (right, -1),
        }
    }

    fn run(mut self, mv: String, out: &mut Vec<(String, RefPos)>) {
        loop {
            assert!(
                self.seen.len() < CAP,
                "reference: move {mv} runs over {CAP} sowings"
            );
            if !self.seen.insert((self.pos.clone(), self.at, self.dir)) {
                return; // endless
            }
            let here = self.pos.grid[self.at.0][self.at.1];
            if here == 1 {
                break;
            }
            let f = facing(self.at);
            if self.capturing && is_front(self.me, self.at) && self.pos.grid[f.0][f.1] > 0 {
                let (k, d) = self.forced();
                if self.capture(k, d) {
                    break;
                }
                continue;
            }
            if self.at == nyumba(self.me) && functional(self.rules, &self.pos, self.me) {
                if !self.capturing {
                    break;
                }
                let stop = Turn {
                    seen: HashSet::new(),
                    pos: self.pos.clone(),
                    ..self
                };
                let stop_mv = format!("{mv}s");
                stop.finish(stop_mv, out);
            }
            let at = self.at;
            let n = self.lift(at, None);
            let first = next(self.me, at, self.dir);
            self.sow(first, self.dir, n);
        }
        self.finish(mv, out);
    }

    fn finish(self, mv: String, out: &mut Vec<(String, RefPos)>) {
        let mut pos = self.pos;
        for p in 0..2 {
            let (r, c) = nyumba(p);
            if self.rules.nyumba == NyumbaRule::BelowSix && pos.grid[r][c] < 6 {
                pos.owned[p] = false;
            }
        }
        if self.rules.nyumba == NyumbaRule::Namua && pos.hands[self.me] == 0 {
            pos.owned[self.me] = false;
        }
        pos.to_move = 1 - self.me;
        pos.takasia = None;
        if self.rules.takasia == TakasiaRule::Kiba && self.mtaji && !self.capturing {
            pos.takasia = takasia(self.rules, &pos);
        }
        out.push((mv, pos));
    }
}

/// Mtaji capture starts of `player`: (cell, dir, last cell).
fn captures(pos: &RefPos, player: usize) -> Vec<(Cell, i32, Cell)> {
    let mut found = Vec::new();
    for &cell in &path(player) {
        let n = pos.grid[cell.0][cell.1];
        if !(2..=15).contains(&n) {
            continue;
        }
        for dir in [1, -1] {
            let mut last = cell;
            for _ in 0..n {
                last = next(player, last, dir);
            }
            let f = facing(last);
            if is_front(player, last) && pos.grid[last.0][last.1] > 0 && pos.grid[f.0][f.1] > 0 {
                found.push((cell, dir, last));
            }
        }
    }
    found
}

/// Mtaji takasa origins: front cells of 2 or more, else back cells of 2 or more.
fn origins(pos: &RefPos, player: usize, blocked: Option<Cell>) -> Vec<Cell> {
    let ok = |c: &Cell| pos.grid[c.0][c.1] >= 2 && Some(*c) != blocked;
    let front: Vec<Cell> = path(player)
        .into_iter()
        .filter(|c| is_front(player, *c) && ok(c))
        .collect();
    if front.is_empty() {
        path(player)
            .into_iter()
            .filter(|c| !is_front(player, *c) && ok(c))
            .collect()
    } else {
        front
    }
}

fn takasia(rules: &BaoRules, pos: &RefPos) -> Option<Cell> {
    let me = pos.to_move;
    if pos.hands[me] > 0 || !captures(pos, me).is_empty() {
        return None;
    }
    let threatened: HashSet<Cell> = captures(pos, 1 - me)
        .iter()
        .map(|&(_, _, last)| facing(last))
        .collect();
    if threatened.len() != 1 {
        return None;
    }
    let cell = *threatened.iter().next().unwrap();
    if rules.has_nyumba() && pos.owned[me] && cell == nyumba(me) {
        return None;
    }
    let o = origins(pos, me, None);
    if o == [cell] || !o.contains(&cell) {
        return None;
    }
    Some(cell)
}

/// The directions of a takasa from `cell`: a kichwa alone in the front row sows inward.
fn dirs(pos: &RefPos, player: usize, cell: Cell) -> Vec<i32> {
    let alone = path(player)
        .iter()
        .filter(|c| is_front(player, **c) && **c != cell)
        .all(|c| pos.grid[c.0][c.1] == 0);
    match from_left(player, cell) {
        0 if is_front(player, cell) && alone => vec![1],
        7 if is_front(player, cell) && alone => vec![-1],
        _ => vec![1, -1],
    }
}

/// Every legal move, written as the engine writes it, with its position.
pub fn moves(rules: &BaoRules, pos: &RefPos) -> Vec<(String, RefPos)> {
    let me = pos.to_move;
    let mut out = Vec::new();
    let front: Vec<Cell> = path(me).into_iter().filter(|c| is_front(me, *c)).collect();
    if front.iter().all(|c| pos.grid[c.0][c.1] == 0) {
        return out;
    }
    let turn = |capturing: bool| Turn {
        rules,
        pos: pos.clone(),
        me,
        at: (0, 0),
        dir: 1,
        capturing,
        mtaji: pos.hands[me] == 0,
        seen: HashSet::new(),
    };
    if pos.hands[me] > 0 {
        let mut any = false;
        for &cell in &front {
            let f = facing(cell);
            if pos.grid[cell.0][cell.1] == 0 || pos.grid[f.0][f.1] == 0 {
                continue;
            }
            any = true;
            let (left, right) = kichwas(me);
            let choices: Vec<(Option<char>, Cell, i32)> = match from_left(me, cell) {
                0 | 1 => vec![(None, left, 1)],
                6 | 7 => vec![(None, right, -1)],
                _ => vec![(Some('L'), left, 1), (Some('R'), right, -1)],
            };
            for (l, kichwa, dir) in choices {
                let mut t = turn(true);
                t.pos.hands[me] -= 1;
                t.pos.grid[cell.0][cell.1] += 1;
                t.at = cell;
                let mv = text(me, cell, l, false);
                if t.capture(kichwa, dir) {
                    t.finish(mv, &mut out);
                } else {
                    t.run(mv, &mut out);
                }
            }
        }
        if any {
            return out;
        }
        let owned = rules.has_nyumba() && pos.owned[me];
        let func = functional(rules, pos, me);
        let singles = owned || front.iter().all(|c| pos.grid[c.0][c.1] < 2);
        let allowed: Vec<Cell> = front
            .iter()
            .copied()
            .filter(|&c| {
                let n = pos.grid[c.0][c.1];
                n > 0 && !(c == nyumba(me) && func) && (n >= 2 || singles)
            })
            .collect();
        for &cell in &allowed {
            for dir in dirs(pos, me, cell) {
                let mut t = turn(false);
                t.pos.hands[me] -= 1;
                t.pos.grid[cell.0][cell.1] += 1;
                let n = t.lift(cell, None);
                t.sow(next(me, cell, dir), dir, n);
                t.run(text(me, cell, Some(letter(me, cell, dir)), false), &mut out);
            }
        }
        if func && (allowed.is_empty() || rules.tax == TaxRule::Always) {
            let cell = nyumba(me);
            for dir in [1, -1] {
                let mut t = turn(false);
                t.pos.hands[me] -= 1;
                t.pos.grid[cell.0][cell.1] += 1;
                let n = t.lift(cell, Some(2));
                t.sow(next(me, cell, dir), dir, n);
                t.run(text(me, cell, Some(letter(me, cell, dir)), false), &mut out);
            }
        }
        return out;
    }
    let caps = captures(pos, me);
    if !caps.is_empty() {
        for (cell, dir, _) in caps {
            let mut t = turn(true);
            let n = t.lift(cell, None);
            t.sow(next(me, cell, dir), dir, n);
            t.run(text(me, cell, Some(letter(me, cell, dir)), false), &mut out);
        }
        return out;
    }
    for cell in origins(pos, me, pos.takasia) {
        for dir in dirs(pos, me, cell) {
            let mut t = turn(false);
            let n = t.lift(cell, None);
            t.sow(next(me, cell, dir), dir, n);
            t.run(text(me, cell, Some(letter(me, cell, dir)), false), &mut out);
        }
    }
    out
}

pub fn perft(rules: &BaoRules, pos: &RefPos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let m = moves(rules, pos);
    if depth == 1 {
        return m.len() as u64;
    }
    m.iter().map(|(_, c)| perft(rules, c, depth - 1)).sum()
}

/// Reads the engine's position text (the same written form; parsed independently here).
pub fn parse(text: &str) -> RefPos {
    let mut fields = text.split_whitespace();
    let rows: Vec<&str> = fields.next().unwrap().split('/').collect();
    let mut pos = RefPos {
        grid: [[0; 8]; 4],
        hands: [0; 2],
        owned: [false; 2],
        takasia: None,
        to_move: 0,
    };
    for (r, row) in rows.iter().enumerate() {
        for (c, cell) in row.split(',').enumerate() {
            let owned = cell.starts_with('#');
            pos.grid[r][c] = cell.trim_start_matches('#').parse().unwrap();
            if owned {
                pos.owned[if r == 2 { 0 } else { 1 }] = true;
            }
        }
    }
    let mut takasia_name = None;
    for f in fields {
        if let Some((s, n)) = f.split_once('-') {
            pos.hands = [s.parse().unwrap(), n.parse().unwrap()];
        } else if f == "S" || f == "N" {
            pos.to_move = usize::from(f == "N");
        } else if let Some(name) = f.strip_prefix("takasia:") {
            takasia_name = Some(name.to_string());
        }
    }
    if let Some(name) = takasia_name {
        let n: usize = name[1..].parse().unwrap();
        let cell = front_row(pos.to_move);
        pos.takasia = Some((cell, if pos.to_move == 0 { n - 1 } else { 8 - n }));
    }
    pos
}

/// Writes a position as the engine does.
pub fn format(pos: &RefPos) -> String {
    let rows: Vec<String> = (0..4)
        .map(|r| {
            (0..8)
                .map(|c| {
                    let owner = if r == 2 {
                        Some(0)
                    } else if r == 1 {
                        Some(1)
                    } else {
                        None
                    };
                    match owner {
                        Some(p) if nyumba(p) == (r, c) && pos.owned[p] => {
                            format!("#{}", pos.grid[r][c])
                        }
                        _ => pos.grid[r][c].to_string(),
                    }
                })
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    let mut t = format!(
        "{} {}-{} {}",
        rows.join("/"),
        pos.hands[0],
        pos.hands[1],
        if pos.to_move == 0 { "S" } else { "N" }
    );
    if let Some(cell) = pos.takasia {
        t.push_str(&format!(
            " takasia:{}",
            text(pos.to_move, cell, None, false)
        ));
    }
    t
}
