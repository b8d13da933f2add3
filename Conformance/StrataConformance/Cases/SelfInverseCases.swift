import Strata

extension ConformanceSuite {
    /// Relationships that are their own inverse (`Member.friends`, `Member.partner`): one edge is
    /// seen from both records through the same relationship (issue 25).
    static let selfInverseCases: [ConformanceCase] = {
        let c = ConformanceCategory.relationships.cases(requiring: [])
        return [
            c("self-inverse-to-many", requires: .manyToMany, "A to-many that is its own inverse lists every edge on both records, whichever record a save wrote; removing or deleting from either side removes both directions.") { ctx in
                let ids = try ctx.insert(ctx.new("Member", ["name": "A"]), ctx.new("Member", ["name": "B"]), ctx.new("Member", ["name": "C"]))
                let (a, b, c) = (ids[0], ids[1], ids[2])
                var ra = try ctx.get(a)
                ra.set("friends", to: [b])
                try ctx.save(updated: [ra])
                try ctx.checkEqual(try ctx.get(b).targets("friends"), [a], "B.friends after A added B")
                try ctx.checkEqual(try ctx.get(a).targets("friends"), [b], "A.friends after A added B")
                var rc = try ctx.get(c)
                rc.set("friends", to: [a, b])
                try ctx.save(updated: [rc])
                try ctx.checkEqual(Set(try ctx.get(a).targets("friends")), Set([b, c]), "A.friends after C added A and B")
                try ctx.checkEqual(Set(try ctx.get(b).targets("friends")), Set([a, c]), "B.friends after C added A and B")
                var rb = try ctx.get(b)
                rb.set("friends", to: [c])
                try ctx.save(updated: [rb])
                try ctx.checkEqual(try ctx.get(a).targets("friends"), [c], "A.friends after B dropped A")
                try ctx.checkEqual(try ctx.get(b).targets("friends"), [c], "B.friends after B dropped A")
                try ctx.delete(c)
                try ctx.checkEqual(try ctx.get(a).targets("friends"), [], "A.friends after C was deleted (nullify)")
                try ctx.checkEqual(try ctx.get(b).targets("friends"), [], "B.friends after C was deleted (nullify)")
                try ctx.checkEqual(try ctx.count("Member", .contains("friends", c)), 0, "members listing C after it was deleted")
            },
            c("self-inverse-to-many-in-one-save", requires: .manyToMany, "Records inserted together that name each other through a self-inverse to-many hold each edge once on each side; a record listing itself holds itself once.") { ctx in
                let a = ctx.new("Member", ["name": "A"]), b = ctx.new("Member", ["name": "B"])
                var c = ctx.new("Member", ["name": "C"])
                var first = a
                first.set("friends", to: [b.id, c.id])
                var second = b
                second.set("friends", to: [a.id])
                c.set("friends", to: [c.id])
                let ids = try ctx.insert(first, second, c)
                try ctx.checkEqual(Set(try ctx.get(ids[0]).targets("friends")), Set([ids[1], ids[2]]), "A.friends")
                try ctx.checkEqual(try ctx.get(ids[0]).targets("friends").count, 2, "A.friends holds each friend once")
                try ctx.checkEqual(try ctx.get(ids[1]).targets("friends"), [ids[0]], "B.friends")
                try ctx.checkEqual(Set(try ctx.get(ids[2]).targets("friends")), Set([ids[0], ids[2]]), "C.friends (A, and C itself)")
                try ctx.checkEqual(try ctx.get(ids[2]).targets("friends").count, 2, "C.friends holds itself once")
                try ctx.checkEqual(try ctx.count("Member", .contains("friends", ids[2])), 2, "members listing C")
            },
            c("self-inverse-to-many-reopened", requires: [.manyToMany, .persistence], "A self-inverse to-many reads back after a reopen as it was saved: each edge once on each side, a record listing itself once.") { ctx in
                let a = ctx.new("Member", ["name": "A"]), b = ctx.new("Member", ["name": "B"])
                var c = ctx.new("Member", ["name": "C"])
                var first = a
                first.set("friends", to: [b.id, c.id])
                c.set("friends", to: [c.id])
                let ids = try ctx.insert(first, b, c)
                // What the backend wrote must read back as one edge per pair (CSV read both columns
                // of its pair file under one name and linked every record to itself).
                try ctx.reopen()
                try ctx.checkEqual(Set(try ctx.get(ids[0]).targets("friends")), Set([ids[1], ids[2]]), "A.friends after a reopen")
                try ctx.checkEqual(try ctx.get(ids[0]).targets("friends").count, 2, "A.friends holds each friend once after a reopen")
                try ctx.checkEqual(try ctx.get(ids[1]).targets("friends"), [ids[0]], "B.friends after a reopen")
                try ctx.checkEqual(Set(try ctx.get(ids[2]).targets("friends")), Set([ids[0], ids[2]]), "C.friends after a reopen")
                try ctx.checkEqual(try ctx.get(ids[2]).targets("friends").count, 2, "C.friends holds itself once after a reopen")
            },
            c("self-inverse-to-one", "A to-one that is its own inverse pairs both records; pairing one of them again leaves its old partner empty; deleting one empties its partner's side.") { ctx in
                let ids = try ctx.insert(ctx.new("Member", ["name": "A"]), ctx.new("Member", ["name": "B"]), ctx.new("Member", ["name": "C"]))
                let (a, b, c) = (ids[0], ids[1], ids[2])
                var ra = try ctx.get(a)
                ra.set("partner", to: b)
                try ctx.save(updated: [ra])
                try ctx.checkEqual(try ctx.get(b).target("partner"), a, "B.partner after A chose B")
                var rc = try ctx.get(c)
                rc.set("partner", to: a)
                try ctx.save(updated: [rc])
                try ctx.checkEqual(try ctx.get(a).target("partner"), c, "A.partner after C chose A")
                try ctx.checkEqual(try ctx.get(b).target("partner"), nil, "B.partner after C chose A")
                try ctx.delete(a)
                try ctx.checkEqual(try ctx.get(c).target("partner"), nil, "C.partner after A was deleted (nullify)")
                let d = ctx.new("Member", ["name": "D"])
                var e = ctx.new("Member", ["name": "E"])
                e.set("partner", to: d.id)
                let pair = try ctx.insert(d, e)
                try ctx.checkEqual(try ctx.get(pair[0]).target("partner"), pair[1], "D.partner, set by the insert of E")
            },
        ]
    }()
}
