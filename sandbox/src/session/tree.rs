//! The variation tree: moves played by hand from a position of the timeline, kept as branches so a
//! step, a jump or a list click does not throw them away (as Lichess and Sabaki keep them).
//!
//! The timeline (a scenario's steps or a record's plies) is the main line; each branch hangs off one
//! of its steps (its *anchor*) and holds moves in coordinates, each with the text the ruleset writes.
//! The tree is plain data — no `Game`, no Bevy — so it is tested alone; [`crate::session::Session`]
//! walks it through the interpreter's API. Invariant: a node's parent is either another node or
//! (when `parent` is `None`) the timeline step `anchor`; children are kept in the order they were
//! played, the first one being the line followed by "forward".

/// A node of the tree (its index in [`Tree::nodes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub usize);

/// One move played by hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The timeline step the branch starts from.
    pub anchor: usize,
    /// The move before this one in the branch; `None`: the branch's first move, played at `anchor`.
    pub parent: Option<NodeId>,
    pub children: Vec<NodeId>,
    /// The move in coordinates (what `Action::Play` takes).
    pub coords: String,
    /// The move as the ruleset writes it.
    pub written: String,
    /// Deleted nodes stay in the arena (ids stay valid) but are no longer reachable.
    pub deleted: bool,
    /// What a record said of the move: its annotation glyphs and comment.
    pub annotation: arbiter::notation::annotation::Annotation,
    /// A record's comment on the line this node starts (before its first move).
    pub line_comment: Option<String>,
}

/// What a deletion removed: the branch's first node, where it hung, and every node it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deleted {
    pub id: NodeId,
    pub parent: Option<NodeId>,
    /// Its place among its parent's children.
    pub index: Option<usize>,
    pub removed: Vec<NodeId>,
}

/// The branches of a game, by anchor step.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tree {
    pub nodes: Vec<Node>,
}

impl Tree {
    pub fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id.0).filter(|n| !n.deleted)
    }

    /// The branches that start at step `anchor`, in the order they were played.
    pub fn roots(&self, anchor: usize) -> Vec<NodeId> {
        (0..self.nodes.len())
            .map(NodeId)
            .filter(|&id| self.node(id).is_some_and(|n| n.parent.is_none() && n.anchor == anchor))
            .collect()
    }

    /// The moves that follow `at` (a node, or with `None` the start of branches at `anchor`).
    pub fn children(&self, anchor: usize, at: Option<NodeId>) -> Vec<NodeId> {
        match at {
            None => self.roots(anchor),
            Some(id) => self
                .node(id)
                .map(|n| n.children.iter().copied().filter(|&c| self.node(c).is_some()).collect())
                .unwrap_or_default(),
        }
    }

    /// The move `coords` after `at`: the existing node if it was played before, else a new one.
    pub fn add(&mut self, anchor: usize, at: Option<NodeId>, coords: &str, written: &str) -> NodeId {
        if let Some(&id) = self.children(anchor, at).iter().find(|&&c| self.nodes[c.0].coords == coords) {
            return id;
        }
        let anchor = at.and_then(|p| self.node(p)).map_or(anchor, |p| p.anchor);
        let id = NodeId(self.nodes.len());
        self.nodes.push(Node {
            anchor,
            parent: at,
            children: Vec::new(),
            coords: coords.to_string(),
            written: written.to_string(),
            deleted: false,
            annotation: Default::default(),
            line_comment: None,
        });
        if let Some(p) = at {
            self.nodes[p.0].children.push(id);
        }
        id
    }

    /// The nodes from the branch's first move down to `id`, in order (empty for a deleted node).
    pub fn path(&self, id: NodeId) -> Vec<NodeId> {
        let mut path = Vec::new();
        let mut at = Some(id);
        while let Some(n) = at {
            let Some(node) = self.node(n) else {
                return Vec::new();
            };
            path.push(n);
            at = node.parent;
        }
        path.reverse();
        path
    }

    /// The branch's moves in coordinates, from its first move down to `id`.
    pub fn line(&self, id: NodeId) -> Vec<String> {
        self.path(id).into_iter().map(|n| self.nodes[n.0].coords.clone()).collect()
    }

    /// The number of moves from the anchor to `id` (0 for a deleted node).
    pub fn depth(&self, id: NodeId) -> usize {
        self.path(id).len()
    }

    /// The alternatives to the last move that reached `id`: its siblings, itself included, in order.
    pub fn siblings(&self, id: NodeId) -> Vec<NodeId> {
        match self.node(id) {
            Some(n) => self.children(n.anchor, n.parent),
            None => Vec::new(),
        }
    }

    /// Removes `id` and everything that follows it; returns its parent.
    pub fn delete(&mut self, id: NodeId) -> Option<NodeId> {
        self.delete_keeping(id).and_then(|d| d.parent)
    }

    /// Removes `id` and everything that follows it, and says how to put them back
    /// ([`Tree::restore`]); `None` if `id` is not in the tree.
    pub fn delete_keeping(&mut self, id: NodeId) -> Option<Deleted> {
        let parent = self.node(id)?.parent;
        let mut removed = Vec::new();
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            if let Some(node) = self.nodes.get_mut(n.0)
                && !node.deleted
            {
                node.deleted = true;
                removed.push(n);
                stack.extend(node.children.iter().copied());
            }
        }
        let index = match parent {
            Some(p) => {
                let children = &mut self.nodes[p.0].children;
                let i = children.iter().position(|&c| c == id);
                children.retain(|&c| c != id);
                i
            }
            None => None,
        };
        Some(Deleted {
            id,
            parent,
            index,
            removed,
        })
    }

    /// Puts back what [`Tree::delete_keeping`] removed, where it was among its siblings.
    pub fn restore(&mut self, d: &Deleted) {
        for n in &d.removed {
            if let Some(node) = self.nodes.get_mut(n.0) {
                node.deleted = false;
            }
        }
        if let Some(p) = d.parent
            && let Some(parent) = self.nodes.get_mut(p.0)
            && !parent.children.contains(&d.id)
        {
            let at = d.index.unwrap_or(parent.children.len()).min(parent.children.len());
            parent.children.insert(at, d.id);
        }
    }

    /// Puts `id` first among its siblings (the line "forward" follows); returns whether it moved.
    pub fn raise(&mut self, id: NodeId) -> bool {
        let Some(parent) = self.node(id).map(|n| n.parent) else {
            return false;
        };
        match parent {
            Some(p) => {
                let children = &mut self.nodes[p.0].children;
                let was = children.iter().position(|&c| c == id);
                if let Some(i) = was.filter(|&i| i > 0) {
                    children.remove(i);
                    children.insert(0, id);
                    return true;
                }
                false
            }
            // Roots are ordered by id: move the node's data to the first root slot at this anchor.
            None => false,
        }
    }

    /// Turns the branch `line` (the path from a root at `anchor` down, which becomes the timeline's
    /// steps) into main line, and the main line's old moves after `anchor` into a branch: branches
    /// that left the old steps hang off the new branch, and those that left the promoted moves now
    /// start at the steps those moves became.
    pub fn promote(&mut self, line: &[NodeId], anchor: usize, old: &[(String, String)]) {
        let later: Vec<NodeId> = (0..self.nodes.len())
            .map(NodeId)
            .filter(|&id| self.node(id).is_some_and(|n| n.parent.is_none() && n.anchor > anchor))
            .collect();
        // Branches off the promoted moves start at their new steps.
        for (k, &l) in line.iter().enumerate() {
            let next = line.get(k + 1).copied();
            let others: Vec<NodeId> = self.nodes[l.0].children.iter().copied().filter(|&c| Some(c) != next).collect();
            for c in others {
                self.nodes[c.0].parent = None;
                self.set_anchor(c, anchor + k + 1);
            }
            self.nodes[l.0].children.clear();
            self.nodes[l.0].deleted = true;
        }
        // The old main line as a branch from the anchor.
        let mut at = None;
        let mut chain = Vec::new();
        for (coords, written) in old {
            let id = NodeId(self.nodes.len());
            self.nodes.push(Node {
                anchor,
                parent: at,
                children: Vec::new(),
                coords: coords.clone(),
                written: written.clone(),
                deleted: false,
                annotation: Default::default(),
                line_comment: None,
            });
            if let Some(p) = at {
                self.nodes[p.0].children.push(id);
            }
            chain.push(id);
            at = Some(id);
        }
        // Branches off the old steps hang off the moves they followed.
        for r in later {
            let t = self.nodes[r.0].anchor;
            if let Some(&p) = chain.get(t - anchor - 1) {
                self.nodes[r.0].parent = Some(p);
                self.nodes[p.0].children.push(r);
                self.set_anchor(r, anchor);
            }
        }
    }

    fn set_anchor(&mut self, id: NodeId, anchor: usize) {
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            self.nodes[n.0].anchor = anchor;
            stack.extend(self.nodes[n.0].children.iter().copied());
        }
    }

    /// Whether no branch is left.
    pub fn is_empty(&self) -> bool {
        self.nodes.iter().all(|n| n.deleted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_played_twice_from_the_same_place_is_one_node() {
        let mut t = Tree::default();
        let a = t.add(3, None, "e2e4", "e4");
        let b = t.add(3, None, "e2e4", "e4");
        assert_eq!(a, b);
        let c = t.add(3, Some(a), "e7e5", "e5");
        let d = t.add(3, Some(a), "c7c5", "c5");
        assert_ne!(c, d);
        assert_eq!(t.siblings(c), vec![c, d]);
        assert_eq!(t.line(d), vec!["e2e4", "c7c5"]);
        assert_eq!(t.node(d).map(|n| n.anchor), Some(3));
        assert_eq!(t.roots(3), vec![a]);
        assert!(t.roots(2).is_empty());
    }

    #[test]
    fn promoting_a_branch_turns_the_old_main_line_into_a_branch_and_reanchors_the_rest() {
        let mut t = Tree::default();
        // Main line after step 1: x y. A branch at step 1: a b (with c as an alternative to b);
        // a branch at step 2 (after x): z.
        let a = t.add(1, None, "a", "a");
        let b = t.add(1, Some(a), "b", "b");
        let c = t.add(1, Some(a), "c", "c");
        let z = t.add(2, None, "z", "z");
        t.promote(&[a, b], 1, &[("x".into(), "x".into()), ("y".into(), "y".into())]);
        assert!(t.node(a).is_none() && t.node(b).is_none());
        // c left the promoted move a, now step 2.
        assert_eq!(t.roots(2), vec![c]);
        let old = t.roots(1);
        assert_eq!(old.len(), 1);
        assert_eq!(t.node(old[0]).map(|n| n.coords.as_str()), Some("x"));
        // z followed x: it hangs off the old branch's x now.
        let after_x = t.children(1, Some(old[0]));
        assert!(after_x.contains(&z));
        assert_eq!(t.line(z), vec!["x", "z"]);
    }

    #[test]
    fn a_deleted_branch_comes_back_where_it_was_with_what_followed_it() {
        let mut t = Tree::default();
        let a = t.add(0, None, "a", "a");
        let b = t.add(0, Some(a), "b", "b");
        let c = t.add(0, Some(a), "c", "c");
        let d = t.add(0, Some(b), "d", "d");
        let gone = t.delete_keeping(b).expect("in the tree");
        assert_eq!(t.children(0, Some(a)), vec![c]);
        assert!(t.node(d).is_none());
        t.restore(&gone);
        assert_eq!(t.children(0, Some(a)), vec![b, c], "first again, as it was");
        assert_eq!(t.line(d), vec!["a", "b", "d"]);
        // A branch whose part was deleted before: only what the later deletion took comes back.
        let first = t.delete_keeping(d).expect("d");
        let second = t.delete_keeping(b).expect("b");
        t.restore(&second);
        assert!(t.node(b).is_some() && t.node(d).is_none());
        t.restore(&first);
        assert!(t.node(d).is_some());
    }

    #[test]
    fn deleting_a_node_removes_what_follows_it_and_raising_puts_it_first() {
        let mut t = Tree::default();
        let a = t.add(0, None, "a", "a");
        let b = t.add(0, Some(a), "b", "b");
        let c = t.add(0, Some(a), "c", "c");
        let b2 = t.add(0, Some(b), "d", "d");
        assert!(t.raise(c));
        assert_eq!(t.children(0, Some(a)), vec![c, b]);
        assert_eq!(t.delete(b), Some(a));
        assert_eq!(t.children(0, Some(a)), vec![c]);
        assert!(t.node(b2).is_none());
        assert!(t.path(b2).is_empty());
        assert_eq!(t.delete(a), None);
        assert!(t.is_empty());
    }
}
