// Azul Companion enclosure for the default build: Raspberry Pi Pico, 0.96" SSD1306 128x64 I2C
// module, six tactile buttons and a 5x5 WS2812B matrix. Two printed parts, joined by four M3
// screws: a base (Pico on standoffs, USB cut-out in the back wall, screw posts) and a lid
// (screen window, LED diffuser with light baffles, button holes). All sizes in mm.
// Render: `hardware/render_enclosure.sh` (PNG previews and STLs), or open in OpenSCAD and pick
// `part`. Measure your own modules and adjust the parameters below; everything else follows.

/* [Part] */
part = "assembly"; // [assembly, exploded, base, lid, print]
explode = 40;       // lid lift in the exploded view, which also shows stand-ins for the modules

/* [Case] */
wall = 2.0;
floor_t = 2.0;
lid_t = 2.0;
inner_w = 76;   // x, inside the walls
inner_d = 136;  // y, front (buttons) to back (USB)
inner_h = 24;   // floor top to lid underside
corner_r = 4;
fit = 0.3;      // clearance between the lid's locating lip and the walls
lip_h = 3;
lip_t = 1.2;

/* [Screws: M3 self-tapping, lid to base] */
post_d = 7;
post_hole_d = 2.5;
lid_hole_d = 3.4;
screw_head_d = 6.2;
screw_head_h = 1.2;

/* [OLED: 0.96 inch SSD1306 128x64 I2C module] */
oled_pcb = [27.5, 27.8];       // module board, pin header at the back (+y) edge
oled_view = [22.5, 11.6];      // window: active area 21.74 x 10.86 plus margin
oled_view_offset = [0, 1.5];   // window centre from board centre; measure your module
oled_from_back = 6;            // gap from the back wall to the module board
oled_frame_h = 3;              // locating frame around the module under the lid

/* [LEDs: 5x5 WS2812B matrix] */
led_n = 5;
led_pitch = 10;        // centre-to-centre spacing of your matrix; measure it
led_gap = 6;           // gap between the screen module and the LED window
diffuser_t = 0.6;      // lid skin left over the LEDs (3 layers of white PLA); 0 = open
baffle_h = 6;          // light walls between cells, down towards the matrix
baffle_t = 1.0;
groove = 0.4;          // depth of the tile grid engraved on top, over the baffles

/* [Buttons: 6x6 mm tactile switches, 13 mm tall, on perfboard under the lid] */
// Switches and board posts sit on the 2.54 mm perfboard grid; sizes below count grid holes.
grid = 2.54;
button_hole_d = 4.4;   // 3.5 mm round plunger; use ~12.5 for 12x12 mm switches with caps
dpad_center = [24, 24];
dpad_arm = 5;          // holes from the D-pad centre to UP/DOWN/LEFT/RIGHT (12.7 mm)
ok_back_dx = 13;       // holes from the D-pad centre to the OK/BACK column
ok_back_dy = 2;        // holes above (OK) and below (BACK) the D-pad centre
button_post_h = 10;    // lid underside to perfboard top: 13 mm switch, plunger 1 mm proud
button_post_d = 5;
button_post_hole_d = 2; // M2 self-tapping screw through a perfboard hole
button_post_dx = [-7, 17];  // holes from the D-pad centre to the two board posts

/* [Pico: 21 x 51 mm, holes 11.4 x 47 mm, micro-USB at the back] */
pico_size = [21, 51];
pico_holes = [11.4, 47];
pico_standoff_h = 3;
pico_x = 38;            // centre of the Pico across the base
usb_cut = [12, 8];      // width x height of the opening in the back wall

$fn = 40;

// derived positions (inside-corner origin; z = 0 at the floor top)
oled_c = [inner_w / 2, inner_d - oled_from_back - oled_pcb[1] / 2];
led_span = led_n * led_pitch;
led_c = [inner_w / 2, oled_c[1] - oled_pcb[1] / 2 - led_gap - led_span / 2];
post_in = post_d / 2 - 0.5;  // posts sink 0.5 mm into the walls so they fuse with them
post_xy = [for (x = [post_in, inner_w - post_in], y = [post_in, inner_d - post_in]) [x, y]];
buttons = [for (h = [[0, dpad_arm], [0, -dpad_arm], [-dpad_arm, 0], [dpad_arm, 0],   // UP DOWN LEFT RIGHT
                     [ok_back_dx, ok_back_dy], [ok_back_dx, -ok_back_dy]])            // OK BACK
           dpad_center + grid * h];
button_posts = [for (dx = button_post_dx) dpad_center + [grid * dx, 0]];
pico_c = [pico_x, inner_d - 1 - pico_size[1] / 2];  // micro-USB edge 1 mm from the wall

module rounded_rect(size, r) {
    translate([r, r]) offset(r = r) square([size[0] - 2 * r, size[1] - 2 * r]);
}

module outline(grow = 0) {  // outer footprint of the case, grown by `grow`
    translate([-wall - grow, -wall - grow]) rounded_rect([inner_w + 2 * (wall + grow), inner_d + 2 * (wall + grow)], corner_r + grow);
}

module base() {
    difference() {
        union() {
            difference() {
                translate([0, 0, -floor_t]) linear_extrude(floor_t + inner_h) outline();
                linear_extrude(inner_h + 1) rounded_rect([inner_w, inner_d], max(corner_r - wall, 0.5));
            }
            for (p = post_xy) translate(p) cylinder(d = post_d, h = inner_h);
            for (sx = [-1, 1], sy = [-1, 1])
                translate(pico_c + [sx * pico_holes[0] / 2, sy * pico_holes[1] / 2]) cylinder(d = 5, h = pico_standoff_h);
        }
        for (p = post_xy) translate([p[0], p[1], 2]) cylinder(d = post_hole_d, h = inner_h);
        for (sx = [-1, 1], sy = [-1, 1])
            translate(pico_c + [sx * pico_holes[0] / 2, sy * pico_holes[1] / 2, 0.5]) cylinder(d = 1.8, h = pico_standoff_h);
        // micro-USB opening, centred on the connector (board top + 1.5 mm)
        translate([pico_c[0] - usb_cut[0] / 2, inner_d - 1, pico_standoff_h + 1 + 1.5 - usb_cut[1] / 2])
            cube([usb_cut[0], wall + 2, usb_cut[1]]);
    }
}

module lid() {
    difference() {
        union() {
            linear_extrude(lid_t) outline();
            // locating lip just inside the walls, cut back around the screw posts
            difference() {
                translate([0, 0, -lip_h]) linear_extrude(lip_h) difference() {
                    translate([fit, fit]) rounded_rect([inner_w - 2 * fit, inner_d - 2 * fit], max(corner_r - wall - fit, 0.5));
                    translate([fit + lip_t, fit + lip_t]) square([inner_w - 2 * (fit + lip_t), inner_d - 2 * (fit + lip_t)]);
                }
                for (p = post_xy) translate([p[0], p[1], -lip_h - 1]) cylinder(d = post_d + 2, h = lip_h + 1);
            }
            // frame that locates the screen module
            translate([oled_c[0], oled_c[1], -oled_frame_h]) linear_extrude(oled_frame_h) difference() {
                square([oled_pcb[0] + 0.4 + 2.4, oled_pcb[1] + 0.4 + 2.4], center = true);
                square([oled_pcb[0] + 0.4, oled_pcb[1] + 0.4], center = true);
            }
            // light baffles: one cell per LED
            translate([led_c[0] - led_span / 2, led_c[1] - led_span / 2, -baffle_h]) linear_extrude(baffle_h) {
                for (i = [0 : led_n]) {
                    translate([i * led_pitch - baffle_t / 2, -baffle_t / 2]) square([baffle_t, led_span + baffle_t]);
                    translate([-baffle_t / 2, i * led_pitch - baffle_t / 2]) square([led_span + baffle_t, baffle_t]);
                }
            }
            for (p = button_posts) translate([p[0], p[1], -button_post_h]) cylinder(d = button_post_d, h = button_post_h);
        }
        translate(oled_c + oled_view_offset) translate([0, 0, -1]) linear_extrude(lid_t + 2) square(oled_view, center = true);
        // diffuser: keep `diffuser_t` of lid over the LEDs, open it below
        translate([led_c[0] - led_span / 2 + baffle_t / 2, led_c[1] - led_span / 2 + baffle_t / 2, -1])
            for (i = [0 : led_n - 1], j = [0 : led_n - 1])
                translate([i * led_pitch, j * led_pitch]) cube([led_pitch - baffle_t, led_pitch - baffle_t, lid_t - diffuser_t + 1]);
        // tile grid on top, like the wall of an Azul board (over the baffles, so no light leaks)
        translate([led_c[0] - led_span / 2, led_c[1] - led_span / 2, lid_t - groove]) linear_extrude(groove + 1)
            for (i = [0 : led_n]) {
                translate([i * led_pitch - baffle_t / 2, -baffle_t / 2]) square([baffle_t, led_span + baffle_t]);
                translate([-baffle_t / 2, i * led_pitch - baffle_t / 2]) square([led_span + baffle_t, baffle_t]);
            }
        for (b = buttons) translate([b[0], b[1], -1]) cylinder(d = button_hole_d, h = lid_t + 2);
        for (p = button_posts) translate([p[0], p[1], -button_post_h - 1]) cylinder(d = button_post_hole_d, h = button_post_h);
        for (p = post_xy) {
            translate([p[0], p[1], -lip_h - 1]) cylinder(d = lid_hole_d, h = lid_t + lip_h + 2);
            translate([p[0], p[1], lid_t - screw_head_h]) cylinder(d = screw_head_d, h = screw_head_h + 1);
        }
    }
}

module components(lift) {  // stand-ins for the modules, for the exploded view only
    color("darkgreen") translate([pico_c[0] - pico_size[0] / 2, pico_c[1] - pico_size[1] / 2, pico_standoff_h]) cube([pico_size[0], pico_size[1], 1]);
    color("silver") translate([pico_c[0] - 4, inner_d - 5.5, pico_standoff_h + 1]) cube([8, 6, 3]);
    translate([0, 0, lift]) {  // these hang under the lid
        color("midnightblue") translate([oled_c[0] - oled_pcb[0] / 2, oled_c[1] - oled_pcb[1] / 2, inner_h - oled_frame_h]) cube([oled_pcb[0], oled_pcb[1], 1.2]);
        color("dimgray") translate([led_c[0] - led_span / 2, led_c[1] - led_span / 2, inner_h - baffle_h - 1.6]) cube([led_span, led_span, 1.6]);
        color("olivedrab") translate([button_posts[0][0] - 3, dpad_center[1] - grid * dpad_arm - 6, inner_h - button_post_h - 1.6])
            cube([button_posts[1][0] - button_posts[0][0] + 6, 2 * grid * dpad_arm + 12, 1.6]);
    }
}

module assembly(lift = 0) {
    color("lightsteelblue") base();
    color("ivory") translate([0, 0, inner_h + lift]) lid();
    if (lift > 0) components(lift);
}

if (part == "base") base();
else if (part == "lid") lid();
else if (part == "print") {  // both parts flat on the bed, lid upside down (diffuser prints first)
    base();
    translate([2 * inner_w + 2 * wall + 10, 0, lid_t]) rotate([0, 180, 0]) lid();
}
else if (part == "exploded") assembly(explode);
else assembly();
