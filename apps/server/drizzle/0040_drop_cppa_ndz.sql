-- California's deletion lists (DROP, issue 35 item 3): the identifiers standardised and hashed exactly as the
-- CPPA's DROP technical documentation 1.2.0 ("Working with the data", hashing) says; the same rules as
-- packages/domain/src/drop.ts (a test holds them together, character by character for names). Replaces the
-- functions of 0039 and rehashes every lead. docs/compliance.md, "California's deletion lists".
--
-- Email: every whitespace removed, then lower case (an address without an @ after its first character is none).
-- Each of these is one expression without FROM, so PostgreSQL inlines it into the trigger's cached plan
-- (a SQL function it cannot inline is planned again on every call: docs/benchmarks.md "Post profile").
CREATE OR REPLACE FUNCTION "leadex_drop_email"(v text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN position('@' IN regexp_replace(coalesce(v, ''), '\s', '', 'g')) > 1
    THEN lower(regexp_replace(v, '\s', '', 'g')) END
$$;
--> statement-breakpoint
-- Phone: digits only, then the last 10 digits (all of them when fewer).
CREATE OR REPLACE FUNCTION "leadex_drop_phone"(v text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN regexp_replace(coalesce(v, ''), '[^0-9]', '', 'g') <> ''
    THEN right(regexp_replace(v, '[^0-9]', '', 'g'), 10) END
$$;
--> statement-breakpoint
-- Declared STABLE, as convert_to() is: PostgreSQL inlines a function only when its body is no more volatile
-- than the function. The same expression as 0039's, so the same hash.
CREATE OR REPLACE FUNCTION "leadex_drop_hash"(v text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(v, 'UTF8')), 'hex')
$$;
--> statement-breakpoint
-- A first or last name: NFKC, Greek and Cyrillic transliterated, Latin folded to ASCII (the tables are the
-- domain's rules applied to each letter of those blocks, both cases), combining marks dropped, lower case,
-- only letters and digits kept. ASCII names skip the tables.
CREATE OR REPLACE FUNCTION "leadex_drop_name"(v text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  s text := coalesce(v, '');
  multi_from text[] := ARRAY['Æ', 'Þ', 'ß', 'æ', 'þ', 'Œ', 'œ', 'Ǣ', 'ǣ', 'Ǽ', 'ǽ', 'Θ', 'Χ', 'Ψ', 'θ', 'χ', 'ψ', 'Ё', 'Ђ', 'Ѓ', 'Є', 'Ѕ', 'Ї', 'Љ', 'Њ', 'Ќ', 'Џ', 'Ж', 'Х', 'Ц', 'Ч', 'Ш', 'Щ', 'Ю', 'Я', 'ж', 'х', 'ц', 'ч', 'ш', 'щ', 'ю', 'я', 'ё', 'ђ', 'ѓ', 'є', 'ѕ', 'ї', 'љ', 'њ', 'ќ', 'џ', 'ẞ'];
  multi_to text[] := ARRAY['ae', 'th', 'ss', 'ae', 'th', 'oe', 'oe', 'ae', 'ae', 'ae', 'ae', 'th', 'ch', 'ps', 'th', 'ch', 'ps', 'yo', 'dj', 'gj', 'ye', 'dz', 'yi', 'lj', 'nj', 'kj', 'dz', 'zh', 'kh', 'ts', 'ch', 'sh', 'shch', 'yu', 'ya', 'zh', 'kh', 'ts', 'ch', 'sh', 'shch', 'yu', 'ya', 'yo', 'dj', 'gj', 'ye', 'dz', 'yi', 'lj', 'nj', 'kj', 'dz', 'ss'];
  i int;
BEGIN
  IF s ~ '[^\x01-\x7f]' THEN
    s := normalize(s, NFKC);
    FOR i IN 1 .. array_length(multi_from, 1) LOOP
      s := replace(s, multi_from[i], multi_to[i]);
    END LOOP;
    s := translate(s,
      'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝàáâãäåçèéêëìíîïðñòóôõöøùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĐđĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĦħĨĩĪīĬĭĮįİıĴĵĶķĸĹĺĻļĽľŁłŃńŅņŇňŊŋŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŦŧŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžƀƁƂƄƆƇƉƊƋƎƏƐƑƒƓƔƖƗƘƚƜƝƟƠơƢƤƦƧƩƬƮƯưƱƲƳƵƶƷƸƼǍǎǏǐǑǒǓǔǕǖǗǘǙǚǛǜǞǟǠǡǤǦǧǨǩǪǫǬǭǮǯǰǴǵǶǷǸǹǺǻǾǿȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗȘșȚțȜȞȟȠȢȤȥȦȧȨȩȪȫȬȭȮȯȰȱȲȳȺȻȼȽȾɁɃɄɅɆɇɈɉɊɌɍɎͰͲͶͿΆΈΉΊΌΎΏΐΑΒΓΔΕΖΗΙΚΛΜΝΞΟΠΡΣΤΥΦΩΪΫάέήίΰαβγδεζηικλμνξοπρςστυφωϊϋόύώϏϘϚϜϞϠϢϤϦϨϪϬϮϷϺϽϾϿЀІЈЋЍЎАБВГДЕЗИЙКЛМНОПРСТУФЫЭабвгдезийклмнопрстуфыэіјћўѠѢѤѦѨѪѬѮѰѲѴѶѸѺѼѾҀҊҌҎҐґҒҔҖҘҚҜҞҠҢҤҦҨҪҬҮҰҲҴҶҸҺҼҾӀӁӃӅӇӉӋӍӐӒӔӖӘӚӜӞӠӢӤӦӨӪӬӮӰӲӴӶӸӺӼӾḀḁḂḃḄḅḆḇḈḉḊḋḌḍḎḏḐḑḒḓḔḕḖḗḘḙḚḛḜḝḞḟḠḡḢḣḤḥḦḧḨḩḪḫḬḭḮḯḰḱḲḳḴḵḶḷḸḹḺḻḼḽḾḿṀṁṂṃṄṅṆṇṈṉṊṋṌṍṎṏṐṑṒṓṔṕṖṗṘṙṚṛṜṝṞṟṠṡṢṣṤṥṦṧṨṩṪṫṬṭṮṯṰṱṲṳṴṵṶṷṸṹṺṻṼṽṾṿẀẁẂẃẄẅẆẇẈẉẊẋẌẍẎẏẐẑẒẓẔẕẖẗẘẙẠạẢảẤấẦầẨẩẪẫẬậẮắẰằẲẳẴẵẶặẸẹẺẻẼẽẾếỀềỂểỄễỆệỈỉỊịỌọỎỏỐốỒồỔổỖỗỘộỚớỜờỞởỠỡỢợỤụỦủỨứỪừỬửỮữỰựỲỳỴỵỶỷỸỹỺỼỾ×÷͵϶ЪЬъь҂҃҄҅҆҇҈҉',
      'aaaaaaceeeeiiiidnoooooouuuuyaaaaaaceeeeiiiidnoooooouuuuyyaaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiiijjkkkllllllllnnnnnnnnoooooorrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzzbɓƃƅɔƈɖɗƌǝəɛffɠɣɩɨƙlɯɲɵooƣƥʀƨʃƭʈuuʊʋƴzzʒƹƽaaiioouuuuuuuuuuaaaaǥggkkooooʒʒjggƕƿnnaaooaaaaeeeeiiiioooorrrruuuussttȝhhƞȣzzaaeeooooooooyyⱥcclⱦɂbʉʌeejjɋrrɏͱͳͷϳaeiioyoiavgdeziiklmnxoprstyfoiyaeiiyavgdeziiklmnxoprsstyfoiyoyoϗϙϛϝϟϡϣϥϧϩϫϭϯϸϻͻͼͽѐijcѝuabvgdeziyklmnoprstufyeabvgdeziyklmnoprstufyeijcuѡѣѥѧѩѫѭѯѱѳѵѷѹѻѽѿҁҋҍҏggғҕҗҙқҝҟҡңҥҧҩҫҭүұҳҵҷҹһҽҿӏӂӄӆӈӊӌӎӑӓӕӗәӛӝӟӡӣӥӧөӫӭӯӱӳӵӷӹӻӽӿaabbbbbbccddddddddddeeeeeeeeeeffgghhhhhhhhhhiiiikkkkkkllllllllmmmmmmnnnnnnnnoooooooopppprrrrrrrrssssssssssttttttttuuuuuuuuuuvvvvwwwwwwwwwwxxxxyyzzzzzzhtwyaaaaaaaaaaaaaaaaaaaaaaaaeeeeeeeeeeeeeeeeiiiioooooooooooooooooooooooouuuuuuuuuuuuuuyyyyyyyyỻỽỿ');
    s := regexp_replace(s, '[\u0300-\u036f\u0483-\u0489\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]', '', 'g');
  END IF;
  RETURN regexp_replace(lower(s), '[^[:alpha:][:digit:]]', '', 'g');
END;
$$;
--> statement-breakpoint
-- Date of birth: YYYYMMDD, from YYYY-MM-DD (a time after it ignored), YYYYMMDD, M/D/YYYY or "July 4, 1776";
-- no such day, no date.
CREATE OR REPLACE FUNCTION "leadex_drop_dob"(v text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  t text := lower(regexp_replace(coalesce(v, ''), '^\s+|\s+$', '', 'g'));
  m text[];
  y int;
  mo int;
  d int;
BEGIN
  m := coalesce(regexp_match(t, '^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:[t ].*)?$'), regexp_match(t, '^([0-9]{4})([0-9]{2})([0-9]{2})$'));
  IF m IS NOT NULL THEN
    y := m[1]::int; mo := m[2]::int; d := m[3]::int;
  ELSE
    m := regexp_match(t, '^([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})$');
    IF m IS NOT NULL THEN
      y := m[3]::int; mo := m[1]::int; d := m[2]::int;
    ELSE
      m := regexp_match(t, '^([a-z]+)\.? ([0-9]{1,2}),? ([0-9]{4})$');
      IF m IS NULL THEN RETURN NULL; END IF;
      mo := coalesce(
        array_position(ARRAY['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'], m[1]),
        array_position(ARRAY['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'], m[1]),
        CASE WHEN m[1] = 'sept' THEN 9 END);
      IF mo IS NULL THEN RETURN NULL; END IF;
      y := m[3]::int; d := m[2]::int;
    END IF;
  END IF;
  IF y < 1 OR mo < 1 OR mo > 12 OR d < 1
    OR d > extract(day FROM make_date(y, mo, 1) + interval '1 month' - interval '1 day') THEN
    RETURN NULL;
  END IF;
  RETURN lpad(y::text, 4, '0') || lpad(mo::text, 2, '0') || lpad(d::text, 2, '0');
END;
$$;
--> statement-breakpoint
-- ZIP: a ZIP+4's +4 dropped, alphanumerics only, lower case, leading zeros removed, the first five characters.
CREATE FUNCTION "leadex_drop_zip"(v text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT nullif(substr(ltrim(lower(regexp_replace(
    coalesce(substring(t FROM '^([0-9]{5})[- ]?[0-9]{4}$'), t), '[^A-Za-z0-9]', '', 'g')), '0'), 1, 5), '')
  FROM (SELECT regexp_replace(coalesce(v, ''), '^\s+|\s+$', '', 'g') AS t) x
$$;
--> statement-breakpoint
-- SHA-256 of a text in UTF-8, in Base64 (DROP's encoding; a composite's parts are joined in it).
CREATE FUNCTION "leadex_drop_b64"(v text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(sha256(convert_to(v, 'UTF8')), 'base64')
$$;
--> statement-breakpoint
-- The NDZ hash (hex, as the leads' hashes are kept): first name, last name, date of birth and ZIP each
-- standardised and hashed (Base64), the four joined in that order and hashed again. The first and last
-- words of the full name when first and last names are not sent. Null when any part is missing.
CREATE FUNCTION "leadex_drop_ndz"(first text, last text, full_name text, dob text, zip text) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  f text := leadex_drop_name(first);
  l text := leadex_drop_name(last);
  d text := leadex_drop_dob(dob);
  z text := leadex_drop_zip(zip);
  parts text[];
BEGIN
  IF f = '' OR l = '' THEN
    parts := regexp_split_to_array(btrim(coalesce(full_name, '')), '\s+');
    IF coalesce(array_length(parts, 1), 0) >= 2 THEN
      f := leadex_drop_name(parts[1]);
      l := leadex_drop_name(parts[array_length(parts, 1)]);
    END IF;
  END IF;
  IF f = '' OR l = '' OR d IS NULL OR z IS NULL THEN RETURN NULL; END IF;
  RETURN encode(sha256(convert_to(leadex_drop_b64(f) || leadex_drop_b64(l) || leadex_drop_b64(d) || leadex_drop_b64(z), 'UTF8')), 'hex');
END;
$$;
--> statement-breakpoint
-- The name + date of birth + ZIP hash only when a date of birth is sent (without one there is none), so
-- most leads skip the name rules.
CREATE OR REPLACE FUNCTION "leads_drop_hashes"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  dob text := coalesce(NEW.fields->>'dob', NEW.fields->>'date_of_birth', NEW.fields->>'birth_date');
BEGIN
  INSERT INTO lead_drop_hashes (lead_id, kind, hash)
  SELECT NEW.id, x.k, x.h
  FROM (VALUES
    ('email', leadex_drop_hash(leadex_drop_email(NEW.email))),
    ('phone', leadex_drop_hash(leadex_drop_phone(NEW.phone))),
    ('name_dob_zip', CASE WHEN dob IS NOT NULL
      THEN leadex_drop_ndz(NEW.first_name, NEW.last_name, NEW.name, dob, NEW.zip) END)
  ) AS x(k, h)
  WHERE x.h IS NOT NULL;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DROP FUNCTION "leadex_drop_name_dob_zip"(text, text, text, text, text);
--> statement-breakpoint
-- Every lead hashed again by these rules (an erased lead holds nothing to hash).
DELETE FROM "lead_drop_hashes";
--> statement-breakpoint
INSERT INTO "lead_drop_hashes" ("lead_id", "kind", "hash")
SELECT l.id, x.k, x.h
FROM "leads" l
CROSS JOIN LATERAL (VALUES
  ('email', leadex_drop_hash(leadex_drop_email(l.email))),
  ('phone', leadex_drop_hash(leadex_drop_phone(l.phone))),
  ('name_dob_zip', leadex_drop_ndz(l.first_name, l.last_name, l.name,
    coalesce(l.fields->>'dob', l.fields->>'date_of_birth', l.fields->>'birth_date'), l.zip))
) AS x(k, h)
WHERE x.h IS NOT NULL;
